import { unstableSetRender } from 'antd-mobile';
import { createRoot, type Root } from 'react-dom/client';
import { App } from './app/App';
import { initI18n } from './lib/i18n';
import './app/styles.css';

// antd-mobile v5 renders toasts and dialogs with React 18's render; on React 19 they show nothing
// until it is given createRoot.
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

initI18n();

const el = document.getElementById('root');
if (!el) throw new Error('index.html has no #root');
createRoot(el).render(<App />);
