import 'antd-mobile/es/global';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { renderAntdWithCreateRoot } from './lib/antdRender';
import { keepFirstPaint } from './app/FirstPaint';
import { initI18n } from './lib/i18n';
import { registerServiceWorker } from './lib/pwa';
import './app/styles.css';

renderAntdWithCreateRoot();

const el = document.getElementById('root');
if (!el) throw new Error('index.html has no #root');
keepFirstPaint(el);
void initI18n().then(() => createRoot(el).render(<App />));
registerServiceWorker();
