/**
 * The early view's frame in plain HTML: an empty list the page's start script fills from the
 * state VS Code keeps for it (see earlyViewDraw.ts), and a composer that keeps what is typed
 * into it until the real one takes over.
 */
export function earlyViewHtml(): string {
  return `<main class="app early-view" id="keel-early" data-testid="early-view" aria-busy="true">
  <div class="early-messages" role="log" aria-label="Conversation">
    <div class="early-list" id="keel-early-list"></div>
  </div>
  <div class="composer">
    <div class="composer-row">
      <textarea class="ui-text-area" id="keel-early-input" rows="1" aria-label="Message Keel" placeholder="Ask Keel… (@ for files, / for commands)" data-testid="early-composer"></textarea>
    </div>
  </div>
</main>`;
}
