import type { PageLocale } from '../protocol/locale';

/**
 * The early view's strings: the chat's own (the same keys in webview/, so they are in the page's
 * share of the catalogue), in the page's language.
 */
export const EARLY_VIEW_KEYS = ['Conversation', 'Message Keel', 'Ask Keel… (@ for files, / for commands)', 'You'] as const;

export function earlyViewText(locale: PageLocale | undefined, key: (typeof EARLY_VIEW_KEYS)[number]): string {
  return locale?.strings[key] ?? key;
}

/**
 * The early view's frame in plain HTML: an empty list the page's start script fills from the
 * state VS Code keeps for it (see earlyViewDraw.ts), and a composer that keeps what is typed
 * into it until the real one takes over. It speaks the page's language from the first paint.
 */
export function earlyViewHtml(locale?: PageLocale): string {
  const t = (key: (typeof EARLY_VIEW_KEYS)[number]): string => attr(earlyViewText(locale, key));
  return `<main class="app early-view" id="keel-early" data-testid="early-view" aria-busy="true">
  <div class="early-messages" role="log" aria-label="${t('Conversation')}">
    <div class="early-list" id="keel-early-list"></div>
  </div>
  <div class="composer">
    <div class="composer-row">
      <textarea class="ui-text-area" id="keel-early-input" rows="1" aria-label="${t('Message Keel')}" placeholder="${t('Ask Keel… (@ for files, / for commands)')}" data-testid="early-composer"></textarea>
    </div>
  </div>
</main>`;
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
