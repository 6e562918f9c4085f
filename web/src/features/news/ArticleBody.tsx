import { createElement, Fragment, useMemo, type ReactNode } from 'react';

// An article's body is HTML the server has already cut to its allow-list (commands/news). It is
// still never handed to innerHTML: it is parsed into an inert document (no script runs and no
// image loads there) and rebuilt as React elements from the same allow-list, so a body that
// somehow held more renders as its text alone.

const KEPT = new Set(['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'ul', 'ol', 'li', 'h3', 'h4', 'blockquote', 'hr']);
/** Elements whose content is dropped with them, not shown as text. */
const DROPPED = new Set(['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript', 'svg', 'math', 'head', 'title']);
const SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/** href when it is an absolute http, https or mailto URL, else undefined. */
export function safeHref(href: string | null): string | undefined {
  if (!href) return undefined;
  try {
    const u = new URL(href);
    return SCHEMES.has(u.protocol) ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function rebuild(node: Node, key: string): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const el = node as Element;
  const tag = el.tagName.toLowerCase();
  if (DROPPED.has(tag)) return null;
  const children = Array.from(el.childNodes).map((c, i) => rebuild(c, `${key}.${i}`));
  if (tag === 'br' || tag === 'hr') return createElement(tag, { key });
  if (tag === 'a') {
    const href = safeHref(el.getAttribute('href'));
    return href ? createElement('a', { key, href, target: '_blank', rel: 'nofollow noreferrer noopener' }, children) : createElement(Fragment, { key }, children);
  }
  return KEPT.has(tag) ? createElement(tag, { key }, children) : createElement(Fragment, { key }, children);
}

/** Renders a body's allowed markup as React elements. */
export function ArticleBody({ html, testId }: { html: string; testId?: string }) {
  const nodes = useMemo(() => {
    const doc = new DOMParser().parseFromString(html, 'text/html');
    return Array.from(doc.body.childNodes).map((n, i) => rebuild(n, String(i)));
  }, [html]);
  return (
    <div className="news-body" data-testid={testId}>
      {nodes}
    </div>
  );
}
