import type { EarlyItem, EarlyMessage, EarlyView } from '../protocol/earlyView';

const ROLE_LABEL: Record<EarlyMessage['role'], string> = { user: 'You', assistant: 'Keel' };

/**
 * The chat as it looked last, in plain HTML the page shows before its script has loaded: the
 * newest messages and a composer that keeps what is typed into it until the real one takes
 * over. Everything in it is text escaped here; the model's markdown is shown as paragraphs
 * and code blocks only (the full rendering arrives with the script).
 */
export function earlyViewHtml(early: EarlyView | undefined): string {
  const messages = (early?.messages ?? []).map(messageHtml).join('\n');
  return `<main class="app early-view" id="keel-early" data-testid="early-view" aria-busy="true">
  <div class="early-messages" role="log" aria-label="Conversation">
    <div class="early-list">
${messages}
    </div>
  </div>
  <div class="composer">
    <div class="composer-row">
      <textarea class="ui-text-area" id="keel-early-input" rows="1" aria-label="Message Keel" placeholder="Ask Keel… (@ for files, / for commands)" data-testid="early-composer"></textarea>
    </div>
  </div>
</main>`;
}

function messageHtml(message: EarlyMessage): string {
  const body = message.items.map((item) => itemHtml(item, message.role)).join('');
  return `      <article class="message message-${message.role}" data-testid="early-message" data-role="${message.role}">
        <header class="message-header"><span class="message-author">${ROLE_LABEL[message.role]}</span></header>
        <div class="message-body">${body}</div>
      </article>`;
}

function itemHtml(item: EarlyItem, role: EarlyMessage['role']): string {
  if (item.kind === 'tool') return `<div class="early-tool">${escapeText(item.label)}</div>`;
  // What the person typed is shown as typed, as the chat does.
  if (role === 'user') return `<p class="message-plain">${escapeText(item.text)}</p>`;
  return `<div class="markdown">${markdownBlocks(item.text)}</div>`;
}

/** Fenced code as preformatted text, the rest as paragraphs split at blank lines (inline code, bold and link text kept). */
function markdownBlocks(text: string): string {
  const blocks: string[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  const flush = (): void => {
    if (paragraph.length > 0) blocks.push(`<div class="md-block"><p>${inline(paragraph.join('\n'))}</p></div>`);
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trimStart().startsWith(fence[1]!); i++) code.push(lines[i]!);
      blocks.push(`<pre class="md-code early-code"><code>${escapeText(code.join('\n'))}</code></pre>`);
    } else if (line.trim() === '') {
      flush();
    } else {
      paragraph.push(line);
    }
  }
  flush();
  return blocks.join('');
}

/** Escaped first, so the only markup in the result is the tags added here. */
function inline(text: string): string {
  return escapeText(text)
    .replace(/`([^`\n]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*\n]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]\n]+)\]\([^)\s]*\)/g, '$1');
}

function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
