/** Rough token count: about four characters per token for English text and code. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export interface Fitted {
  text: string;
  tokens: number;
  /** True when the text had to be cut to fit. */
  cut: boolean;
}

/**
 * Keeps `text` within `budgetTokens`, cutting at a line boundary and ending with a note
 * that says what was left out and how to see the rest.
 */
export function fitToBudget(text: string, budgetTokens: number, hint: string): Fitted {
  const tokens = estimateTokens(text);
  if (tokens <= budgetTokens) return { text, tokens, cut: false };
  const totalLines = countLines(text);
  const noteFor = (shown: number) =>
    `[cut to fit ${budgetTokens.toLocaleString('en-US')} tokens: ${shown.toLocaleString('en-US')} of ` +
    `${totalLines.toLocaleString('en-US')} lines shown${hint ? `; ${hint}` : ''}]`;
  const room = Math.max(0, budgetTokens * 4 - noteFor(totalLines).length - 1);
  let head = text.slice(0, room);
  const lastBreak = head.lastIndexOf('\n');
  // Cut at a line end unless that would throw away most of what fits (one very long line).
  if (lastBreak > room / 2) head = head.slice(0, lastBreak);
  const shown = head === '' ? 0 : countLines(head);
  const out = head === '' ? noteFor(0) : `${head}\n${noteFor(shown)}`;
  return { text: out, tokens: estimateTokens(out), cut: true };
}

function countLines(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}
