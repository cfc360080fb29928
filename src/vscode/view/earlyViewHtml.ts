import type { PageLocale } from '../../protocol/locale';

/**
 * The early view's strings: the chat's own (the same keys in webview/, so they are in the page's
 * share of the catalogue), in the page's language.
 */
export const EARLY_VIEW_KEYS = [
  'Conversation',
  'Message Keel',
  'Ask Keel… (@ for files, / for commands)',
  'You',
  'New chat',
  'Ask Keel to explain, change or plan code in this workspace.',
  'Type @ to add files, / for commands. Edits and commands wait for your approval.',
] as const;

export function earlyViewText(locale: PageLocale | undefined, key: (typeof EARLY_VIEW_KEYS)[number]): string {
  return locale?.strings[key] ?? key;
}

/**
 * The early view's frame in plain HTML, readable before any script runs: the chat's header,
 * the empty state of a new conversation, and a composer that keeps what is typed into it
 * until the real one takes over. The page's start script fills the list from the state VS
 * Code keeps for it (see earlyViewDraw.ts), which hides the empty state and puts the saved
 * title in the header. It speaks the page's language from the first paint.
 */
export function earlyViewHtml(locale?: PageLocale): string {
  const t = (key: (typeof EARLY_VIEW_KEYS)[number]): string => text(earlyViewText(locale, key));
  return `<main class="app early-view" id="keel-early" data-testid="early-view" aria-busy="true">
  <header class="header">
    <span class="header-title" id="keel-early-title" data-testid="early-title">${t('New chat')}</span>
  </header>
  <div class="empty-state" id="keel-early-empty" data-testid="early-empty">
    <p>${t('Ask Keel to explain, change or plan code in this workspace.')}</p>
    <p class="empty-state-hint">${t('Type @ to add files, / for commands. Edits and commands wait for your approval.')}</p>
  </div>
  <div class="early-messages" role="log" hidden aria-label="${t('Conversation')}">
    <div class="early-list" id="keel-early-list"></div>
  </div>
  <div class="composer">
    <div class="composer-row">
      <textarea class="ui-text-area" id="keel-early-input" rows="1" autofocus aria-label="${t('Message Keel')}" placeholder="${t('Ask Keel… (@ for files, / for commands)')}" data-testid="early-composer"></textarea>
    </div>
  </div>
  <footer class="footer early-footer" aria-hidden="true"></footer>
</main>`;
}

/** Text for an attribute or an element: nothing in a translation can open a tag or end a quote. */
function text(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
