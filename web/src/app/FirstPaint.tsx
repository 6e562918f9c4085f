// What index.html painted before any script (its skeleton, or the prerendered welcome page),
// kept to be shown again while the first screen's chunk loads: the screen goes from that first
// paint straight to the page, with no blank screen between (issue 14 item 6, cold start).
let firstPaint = '';

/** Keeps the markup index.html put in the app's root; call it before the app renders there. */
export function keepFirstPaint(root: Element): void {
  firstPaint = root.innerHTML;
}

/** The first paint again (index.html's own static markup, never user data), or the page colour. */
export function FirstPaint() {
  return <div className="boot" data-testid="first-paint" dangerouslySetInnerHTML={{ __html: firstPaint }} />;
}
