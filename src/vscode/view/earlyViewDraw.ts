/**
 * Draws the saved early view (see earlyView.ts) into `list`: the chat page runs it from its
 * inline start script, with the state VS Code keeps for the page, before the UI script has
 * loaded. It reaches the page as source text (webviewHtml.ts), so it is self-contained: no
 * imports and no names from outside. It builds elements and text nodes only, never HTML
 * from the state, and skips anything not of the saved shape. `you` is the person's label in
 * the page's language (the chat's own "You"). When it drew messages, the list is shown in
 * place of the empty state (earlyViewHtml.ts), and a saved title replaces "New chat".
 */
export function drawEarlyView(state: unknown, list: Element, you = 'You'): void {
  const doc = list.ownerDocument;
  const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  const element = (tag: string, className: string, text?: string): HTMLElement => {
    const created = doc.createElement(tag);
    if (className) created.className = className;
    if (text !== undefined) created.textContent = text;
    return created;
  };
  /** Inline code and bold as elements, the rest as text (link syntax shows as written). */
  const inline = (target: HTMLElement, text: string): HTMLElement => {
    for (const piece of text.split(/(`[^`\n]+`|\*\*[^*\n]+\*\*)/)) {
      if (piece.startsWith('`') && piece.endsWith('`') && piece.length > 2) target.append(element('code', '', piece.slice(1, -1)));
      else if (piece.startsWith('**') && piece.endsWith('**') && piece.length > 4) target.append(element('strong', '', piece.slice(2, -2)));
      else if (piece) target.append(doc.createTextNode(piece));
    }
    return target;
  };
  /** Fenced code as preformatted text, the rest as paragraphs split at blank lines. */
  const markdown = (text: string): HTMLElement => {
    const box = element('div', 'markdown');
    const lines = text.replace(/\r\n?/g, '\n').split('\n');
    let paragraph: string[] = [];
    const flush = (): void => {
      if (paragraph.length === 0) return;
      const block = element('div', 'md-block');
      block.append(inline(element('p', ''), paragraph.join('\n')));
      box.append(block);
      paragraph = [];
    };
    for (let i = 0; i < lines.length; i++) {
      const fence = /^\s*(`{3,}|~{3,})/.exec(lines[i]!);
      if (fence) {
        flush();
        const code: string[] = [];
        for (i++; i < lines.length && !lines[i]!.trimStart().startsWith(fence[1]!); i++) code.push(lines[i]!);
        const pre = element('pre', 'md-code early-code');
        pre.append(element('code', '', code.join('\n')));
        box.append(pre);
      } else if (lines[i]!.trim() === '') {
        flush();
      } else {
        paragraph.push(lines[i]!);
      }
    }
    flush();
    return box;
  };

  // The shape and limits of earlyView.ts (version 1, six messages).
  if (!isRecord(state) || state.v !== 1 || !Array.isArray(state.messages)) return;
  for (const message of state.messages.slice(-6)) {
    if (!isRecord(message) || (message.role !== 'user' && message.role !== 'assistant') || !Array.isArray(message.items)) continue;
    const article = element('article', `message message-${message.role}`);
    article.setAttribute('data-testid', 'early-message');
    article.setAttribute('data-role', message.role);
    const header = element('header', 'message-header');
    header.append(element('span', 'message-author', message.role === 'user' ? you : 'Keel'));
    const body = element('div', 'message-body');
    for (const item of message.items) {
      if (isRecord(item) && item.kind === 'tool' && typeof item.label === 'string') body.append(element('div', 'early-tool', item.label));
      else if (isRecord(item) && item.kind === 'text' && typeof item.text === 'string') {
        body.append(message.role === 'user' ? element('p', 'message-plain', item.text) : markdown(item.text));
      }
    }
    article.append(header, body);
    list.append(article);
  }
  if (list.childElementCount === 0) return;
  const shown = list.closest('.early-view');
  shown?.querySelector('.early-messages')?.removeAttribute('hidden');
  shown?.querySelector('.empty-state')?.setAttribute('hidden', '');
  const title = shown?.querySelector('.header-title');
  if (title && typeof state.title === 'string' && state.title.trim() !== '') title.textContent = state.title;
}
