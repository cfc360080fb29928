import type { TodoItem } from '../tools/todoStore';

/**
 * The plan as a Markdown document (Goal, Steps, Risks, Verification; see the plan prompt)
 * and what Keel derives from it. Parsing is lenient: a person may rewrite the plan freely,
 * and whatever they leave is what executes.
 */

const MAX_STEP_CHARS = 200;

/**
 * The steps of the plan, one line each: the numbered (or bulleted) top-level items of the
 * "Steps" section; without such a section, the numbered items of the whole document.
 */
export function planSteps(markdown: string): string[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const section = stepsSection(lines);
  const bullets = section !== undefined;
  const steps: string[] = [];
  let inFence = false;
  for (const line of section ?? lines) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const item = bullets ? /^(?:\d+[.)]|[-*+])\s+(.*)$/.exec(line) : /^\d+[.)]\s+(.*)$/.exec(line);
    const text = item?.[1] ? plainText(item[1]) : '';
    if (text) steps.push(text.length > MAX_STEP_CHARS ? `${text.slice(0, MAX_STEP_CHARS - 1).trimEnd()}…` : text);
  }
  return steps;
}

/** The lines under a heading whose title starts with "Steps" (any level), up to the next heading of that level or above. */
function stepsSection(lines: readonly string[]): string[] | undefined {
  const start = lines.findIndex((l) => /^#{1,6}\s+(?:\d+[.)]?\s*)?(?:implementation\s+)?steps\b/i.test(l.trim()));
  if (start < 0) return undefined;
  const level = /^#+/.exec(lines[start]!.trim())![0].length;
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const heading = /^(#{1,6})\s/.exec(line.trim());
    if (heading && heading[1]!.length <= level) break;
    out.push(line);
  }
  return out;
}

/** Markdown emphasis and code marks off, whitespace folded. Links keep their text. */
function plainText(s: string): string {
  return s
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The plan's steps as the todo list the agent works through while executing it. */
export function planTodos(markdown: string): TodoItem[] {
  return planSteps(markdown).map((content, i) => ({ id: `step-${i + 1}`, content, status: 'pending' }));
}

const EXECUTION_OPENING = 'Execute this plan.';

/** The task sent in act mode when the person executes a plan: the plan itself, as it now reads. */
export function executionPrompt(markdown: string, todos: readonly TodoItem[]): string {
  const list =
    todos.length > 0
      ? `Your todo list already holds the plan's steps (ids ${todos[0]!.id}…${todos.at(-1)!.id}). Keep it current with todo_write as you go: one step in_progress at a time, completed as soon as it is done.`
      : 'Use todo_write to track the steps as you go.';
  return [
    `${EXECUTION_OPENING} It was reviewed (and maybe edited) by the person: follow it as written; if a step turns out to be wrong, say so before doing something else.`,
    list,
    '',
    '<plan>',
    markdown.trim(),
    '</plan>',
  ].join('\n');
}

/** The request in plan mode when the person asks for changes to a plan. */
export function refinePrompt(markdown: string, feedback: string): string {
  return [
    'Revise the plan below with this feedback. Present the whole revised plan (same sections), not only the changes.',
    '',
    '<feedback>',
    feedback.trim(),
    '</feedback>',
    '',
    '<plan>',
    markdown.trim(),
    '</plan>',
  ].join('\n');
}

/**
 * The plan inside a message executionPrompt() wrote, or undefined for any other text: the
 * chat shows such a message as "Executing plan: <title>", not as Keel's instructions.
 */
export function executedPlanOf(text: string): string | undefined {
  if (!text.startsWith(EXECUTION_OPENING)) return undefined;
  const open = text.indexOf('\n<plan>\n');
  const close = text.lastIndexOf('\n</plan>');
  if (open < 0 || close < open) return undefined;
  return text.slice(open + '\n<plan>\n'.length, close);
}

/**
 * A short name for a plan: its first top-level heading, else the first line of its Goal
 * section, else its first line of text; Markdown marks off, at most 80 characters.
 */
export function planTitle(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const heading = lines.find((l) => /^#\s+\S/.test(l));
  const goalAt = lines.findIndex((l) => /^#{1,6}\s+goal\b/i.test(l.trim()));
  const goal = goalAt >= 0 ? lines.slice(goalAt + 1).find((l) => l.trim() !== '' && !/^#/.test(l.trim())) : undefined;
  const first = lines.find((l) => l.trim() !== '' && !/^#{2,6}\s/.test(l.trim()));
  const title = plainText((heading ?? goal ?? first ?? '').replace(/^#+\s*/, '').replace(/^(?:\d+[.)]|[-*+])\s+/, ''));
  if (!title) return 'Untitled plan';
  return title.length > 80 ? `${title.slice(0, 79).trimEnd()}…` : title;
}
