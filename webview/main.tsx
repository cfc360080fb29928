import './zodCsp';
import '@vscode/codicons/dist/codicon.css';
import './styles/base.css';
import './styles/controls.css';
import './styles/messages.css';
import './styles/markdown.css';
import './styles/cards.css';
import './styles/mcpCards.css';
import './styles/composer.css';
import './styles/panels.css';
import './styles/early.css';
import { createRoot } from 'react-dom/client';
import { errorMessage } from '../src/protocol/busError';
import { BridgeContext } from './bridge/bridgeContext';
import { startUiBridge } from './bridge/uiBridge';
import { App } from './components/App';
import { RenderErrorBoundary } from './components/RenderErrorBoundary';
import { EarlyViewHandOff } from './early/EarlyViewHandOff';
import { startEarlyViewSaver } from './early/earlyViewSaver';
import { applyPageLocale } from './l10n/pageLocale';
import { ChatStore } from './store/chatStore';
import { StoreContext } from './store/storeContext';
import { vscodeApi } from './bridge/vscodeApi';

const store = new ChatStore();
// The bridge announces `ready` as soon as it listens; the snapshot lands in the store even before the first render.
const bridge = startUiBridge(store);
startEarlyViewSaver(store, (view) => vscodeApi().setState(view));

window.addEventListener('error', (event) => bridge.log('error', `uncaught: ${errorMessage(event.error ?? event.message)}`));
window.addEventListener('unhandledrejection', (event) =>
  bridge.log('error', `unhandled rejection: ${errorMessage(event.reason)}`),
);

document.documentElement.lang = applyPageLocale(document, (message) => bridge.log('warn', message));

const container = document.getElementById('root');
if (!container) throw new Error('Keel webview: the page has no #root element');
// The host's HTML shows the last screen until the snapshot is in (absent in a page without it).
const early = document.getElementById('keel-early');

createRoot(container).render(
  <StoreContext.Provider value={store}>
    <BridgeContext.Provider value={bridge}>
      <RenderErrorBoundary log={bridge.log}>
        <App />
      </RenderErrorBoundary>
      {early ? <EarlyViewHandOff early={early} root={container} /> : null}
    </BridgeContext.Provider>
  </StoreContext.Provider>,
);
