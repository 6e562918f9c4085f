import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';
import { createRoot, type Root } from 'react-dom/client';

/**
 * antd-mobile v5 renders toasts and dialogs with React 18's render; on React 19 they show nothing
 * (and their unmount throws) until it is given createRoot. The app and the unit tests both call
 * this. (Deep imports keep the whole kit out of the first route.)
 */
export function renderAntdWithCreateRoot(): void {
  const roots = new WeakMap<Element | DocumentFragment, Root>();
  unstableSetRender((node, container) => {
    let root = roots.get(container);
    if (!root) {
      root = createRoot(container);
      roots.set(container, root);
    }
    root.render(node);
    return async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      root.unmount();
      roots.delete(container);
    };
  });
}
