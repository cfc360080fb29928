import * as l10n from '@vscode/l10n';
import { usageText } from './usageText';
import type { UsageTotals } from './sessionState';
import type { ModelMessage } from 'ai';
import { presentByName } from '../tools/builtinTools';
import type { Session, SessionEntry } from './session';
import { isKeelNote } from './keelNotes';

/**
 * A session as files a person keeps or shares: a readable Markdown transcript (prompts,
 * answers, tool calls with their results, edits as diffs) and a JSON document of the active
 * branch. Both are made from the log alone; nothing is sent anywhere.
 */

const RESULT_MAX_CHARS = 4000;

export interface ExportSource {
  id: string;
  title: string;
  workspace: string;
  createdAt: string;
  updatedAt: string;
  usage: UsageTotals;
  entries: readonly SessionEntry[];
}

export function exportSource(session: Session): ExportSource {
  const summary = session.summary();
  return {
    id: session.id,
    title: summary.title,
    workspace: session.header?.workspaceFile ?? session.header?.workspaceRoot ?? '',
    createdAt: summary.createdAt,
    updatedAt: summary.updatedAt,
    usage: summary.usage,
    entries: session.entries(),
  };
}

export function sessionToMarkdown(src: ExportSource): string {
  const results = toolResults(src.entries);
  // The headings are for people and follow the display language; ids, times and content stay as logged.
  const out: string[] = [`# ${oneLine(src.title) || l10n.t('Untitled chat')}`, ''];
  out.push(`- ${l10n.t('Session: {0}', `\`${src.id}\``)}`);
  if (src.workspace) out.push(`- ${l10n.t('Workspace: {0}', `\`${src.workspace}\``)}`);
  out.push(`- ${l10n.t('Started: {0}', src.createdAt)}`, `- ${l10n.t('Last activity: {0}', src.updatedAt)}`);
  out.push(`- ${l10n.t('Messages: {0}', src.entries.filter((e) => e.kind === 'message').length)}`);
  out.push(`- ${l10n.t('Tokens: {0} ({1} in, {2} out)', src.usage.inputTokens + src.usage.outputTokens, src.usage.inputTokens, src.usage.outputTokens)}`);
  out.push(`- ${l10n.t('Usage: {0}', usageText(src.usage))}`);
  for (const entry of src.entries) {
    out.push('');
    if (entry.kind === 'compaction') {
      out.push(`## ${l10n.t('Summary of the earlier conversation')} · ${entry.ts}`, '', entry.summary.trim());
      continue;
    }
    const { message } = entry;
    if (message.role === 'tool') continue; // shown under the call that asked for it
    const who = message.role === 'user' ? l10n.t('You') : message.role === 'assistant' ? (entry.meta?.model ? `Keel (${entry.meta.model})` : 'Keel') : l10n.t('System');
    out.push(`## ${who} · ${entry.ts}`);
    if (entry.meta?.partial) out.push('', `_${l10n.t('(cut short)')}_`);
    out.push(...messageMarkdown(message, results));
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** The active branch as JSON: messages as the model received them, with their ids and times. */
export function sessionToJson(src: ExportSource): string {
  const doc = {
    format: 'keel-session',
    version: 1,
    id: src.id,
    title: src.title,
    workspace: src.workspace,
    createdAt: src.createdAt,
    updatedAt: src.updatedAt,
    usage: src.usage,
    entries: src.entries.map((e) =>
      e.kind === 'compaction'
        ? { kind: 'compaction', id: e.id, ts: e.ts, summary: e.summary, replacesUpTo: e.replacesUpTo }
        : { kind: 'message', id: e.id, parentId: e.parentId, ts: e.ts, ...(e.meta ? { meta: e.meta } : {}), message: e.message },
    ),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** A file name for the export: the title's words, or the session id. */
export function exportFileName(src: Pick<ExportSource, 'id' | 'title'>, ext: 'md' | 'json'): string {
  const words = src.title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `${words || `keel-session-${src.id}`}.${ext}`;
}

interface ResultText {
  text: string;
  isError: boolean;
}

function toolResults(entries: readonly SessionEntry[]): Map<string, ResultText> {
  const out = new Map<string, ResultText>();
  for (const entry of entries) {
    if (entry.kind !== 'message' || entry.message.role !== 'tool') continue;
    for (const part of entry.message.content) {
      if (part.type === 'tool-result') out.set(part.toolCallId, resultText(part.output));
    }
  }
  return out;
}

function resultText(output: { type: string; value?: unknown; reason?: string }): ResultText {
  switch (output.type) {
    case 'text':
      return { text: String(output.value), isError: false };
    case 'error-text':
      return { text: String(output.value), isError: true };
    case 'json':
      return { text: JSON.stringify(output.value, null, 2), isError: false };
    case 'error-json':
      return { text: JSON.stringify(output.value, null, 2), isError: true };
    case 'execution-denied':
      return { text: output.reason ?? l10n.t('The person declined this call.'), isError: true };
    case 'content': {
      const parts = Array.isArray(output.value) ? (output.value as Array<{ type: string; text?: string }>) : [];
      return { text: parts.map((p) => (p.type === 'text' ? (p.text ?? '') : `[${p.type}]`)).join('\n'), isError: false };
    }
    default:
      return { text: `[${output.type}]`, isError: false };
  }
}

function messageMarkdown(message: ModelMessage, results: Map<string, ResultText>): string[] {
  const content = (message as { content: unknown }).content;
  if (typeof content === 'string') return content.trim() ? ['', content.trim()] : [];
  const out: string[] = [];
  for (const part of content as Array<Record<string, unknown>>) {
    switch (part.type) {
      case 'text':
        // The workspace context Keel attached is for the model; the export shows what was said.
        if (typeof part.text === 'string' && part.text.trim() && !isKeelNote(part.text)) out.push('', part.text.trim());
        break;
      case 'reasoning':
        if (typeof part.text === 'string' && part.text.trim()) out.push('', ...part.text.trim().split('\n').map((l) => `> ${l}`));
        break;
      case 'image':
      case 'file':
        out.push('', `_[${l10n.t('attachment: {0}', String(part.mediaType ?? part.type))}]_`);
        break;
      case 'tool-call': {
        const id = String(part.toolCallId);
        out.push('', ...toolCallMarkdown(String(part.toolName), part.input, results.get(id)));
        break;
      }
      default:
        break;
    }
  }
  return out;
}

function toolCallMarkdown(name: string, input: unknown, result: ResultText | undefined): string[] {
  const args = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const path = typeof args.file_path === 'string' ? args.file_path : typeof args.path === 'string' ? args.path : undefined;
  // What the call is comes from how its tool presents it; the text of a change from its input.
  const details = presentByName(name, input).details;
  const out: string[] = [];
  if (details.kind === 'fileChange' && path && typeof args.old_string === 'string' && typeof args.new_string === 'string') {
    out.push(`**${toolLabel(name)}** \`${path}\``, '', ...fenced('diff', unifiedLines(args.old_string, args.new_string)));
  } else if (details.kind === 'fileChange' && path && typeof args.content === 'string') {
    out.push(`**${toolLabel(name)}** \`${path}\``, '', ...fenced('diff', args.content.split('\n').map((l) => `+${l}`).join('\n')));
  } else if (details.kind === 'command') {
    out.push(`**${toolLabel(name)}**`, '', ...fenced('sh', details.command));
  } else {
    out.push(`**${toolLabel(name)}**${path ? ` \`${path}\`` : ''}`, '', ...fenced('json', JSON.stringify(input ?? {}, null, 2)));
  }
  if (!result) out.push('', `_${l10n.t('No result (the run stopped before it finished).')}_`);
  else {
    const text = result.text.length > RESULT_MAX_CHARS ? `${result.text.slice(0, RESULT_MAX_CHARS)}\n… ${l10n.t('({0} more characters)', result.text.length - RESULT_MAX_CHARS)}` : result.text;
    out.push('', result.isError ? l10n.t('Result (error):') : l10n.t('Result:'), '', ...fenced('', text));
  }
  return out;
}

function toolLabel(name: string): string {
  return l10n.t('Tool {0}', `\`${name}\``);
}

/** The replaced lines, then their replacement: what the edit did, read as a diff. */
function unifiedLines(before: string, after: string): string {
  const minus = before === '' ? [] : before.split('\n').map((l) => `-${l}`);
  const plus = after === '' ? [] : after.split('\n').map((l) => `+${l}`);
  return [...minus, ...plus].join('\n');
}

/** A code fence longer than any run of backticks inside, so content can never close it. */
function fenced(lang: string, body: string): string[] {
  const longest = Math.max(2, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}${lang}`, body, fence];
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
