import 'antd-mobile/es/global';
import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';
import { createRoot, type Root } from 'react-dom/client';
import { App } from './app/App';
import { keepFirstPaint } from './app/FirstPaint';
import { initI18n } from './lib/i18n';
import { registerServiceWorker } from './lib/pwa';
import './app/styles.css';

// antd-mobile v5 renders toasts and dialogs with React 18's render; on React 19 they show nothing
// until it is given createRoot. (Deep imports keep the whole kit out of the first route.)
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

const el = document.getElementById('root');
if (!el) throw new Error('index.html has no #root');
keepFirstPaint(el);
void initI18n().then(() => createRoot(el).render(<App />));
registerServiceWorker();
