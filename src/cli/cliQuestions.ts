import * as l10n from '@vscode/l10n';
import { createInterface } from 'node:readline/promises';
import { defaultsAnswer, formFields, readFieldValue } from '../core/mcp';
import type { ElicitQuestion, Elicitor, approvedSampler } from '../core/mcp';
import type { HookApprover } from '../core/hooks';
import type { McpElicitationMode } from './cliArgs';

interface Terminal {
  /** Where questions are written (stderr: stdout carries the run's output). */
  write(text: string): void;
  /** Reads one answered line; undefined when input ended. */
  ask(prompt: string, signal: AbortSignal): Promise<string | undefined>;
}

/**
 * How `keel run` answers MCP servers' questions: `ask` on a terminal (one question at a time),
 * `defaults` accepts a form whose required fields all have defaults, `decline` says no. What
 * the server asked and the answer go to stderr either way.
 */
export function cliElicitor(mode: McpElicitationMode, terminal: Terminal | undefined, note: (line: string) => void): Elicitor {
  let queue: Promise<unknown> = Promise.resolve();
  return (server, question, signal) => {
    note(l10n.t('MCP server "{0}" asks: {1}', server, question.params.message));
    if (mode === 'ask' && terminal) {
      const turn = queue.then(() => askPerson(terminal, server, question, signal));
      queue = turn.catch(() => undefined);
      return turn;
    }
    const answer = mode === 'defaults' ? defaultsAnswer(question) : ({ action: 'decline' } as const);
    const why = mode === 'ask' ? l10n.t('no terminal to ask on') : `--mcp-elicitation ${mode}`;
    note(`  ${answer.action === 'accept' ? l10n.t('accepted with the defaults ({0})', why) : l10n.t('declined ({0})', why)}`);
    return Promise.resolve(answer);
  };
}

/** A terminal on this process's stdin and stderr, when stdin is one. */
export function processTerminal(): Terminal | undefined {
  if (!process.stdin.isTTY) return undefined;
  return {
    write: (text) => process.stderr.write(text),
    async ask(prompt, signal) {
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return await rl.question(prompt, { signal });
      } catch (err) {
        if (signal.aborted) return undefined;
        throw err;
      } finally {
        rl.close();
      }
    },
  };
}

async function askPerson(t: Terminal, server: string, question: ElicitQuestion, signal: AbortSignal) {
  if (question.mode === 'url') {
    t.write(`  ${l10n.t('It asks you to open: {0}', question.params.url)}\n`);
    const go = await t.ask(`  ${l10n.t('Open it yourself, then answer: accept, decline or cancel [decline]')} `, signal);
    return { action: choice(go) };
  }
  const first = await t.ask(`  ${l10n.t('Answer it? accept, decline or cancel [accept]')} `, signal);
  const action = first === undefined ? 'cancel' : first.trim() === '' ? 'accept' : choice(first);
  if (action !== 'accept') return { action };
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const field of formFields(question.params)) {
    const hint = [field.options ? field.options.map((o) => o.value).join('/') : field.kind, field.default !== undefined ? l10n.t('default {0}', String(field.default)) : field.required ? l10n.t('required') : l10n.t('optional')];
    for (let tries = 0; ; tries++) {
      const typed = await t.ask(`  ${field.label}${field.description ? ` (${field.description})` : ''} [${hint.join(', ')}]: `, signal);
      if (typed === undefined) return { action: 'cancel' as const };
      // Left empty: the default (filled in by the SDK), or nothing for an optional field.
      if (typed.trim() === '' && (field.default !== undefined || !field.required)) break;
      const read = readFieldValue(field, typed);
      if ('value' in read) {
        content[field.name] = read.value;
        break;
      }
      t.write(`  ${read.problem}\n`);
      if (tries >= 2) return { action: 'cancel' as const };
    }
  }
  t.write(`  ${l10n.t('Sent to "{0}".', server)}\n`);
  return { action: 'accept' as const, content };
}

function choice(typed: string | undefined): 'accept' | 'decline' | 'cancel' {
  const text = (typed ?? '').trim().toLowerCase();
  if (text === 'a' || text === 'accept' || text === 'y' || text === 'yes') return 'accept';
  if (text === 'c' || text === 'cancel') return 'cancel';
  return 'decline';
}

/** The most of a sampling request shown before asking; the rest is counted, not printed. */
const shownRequestChars = 4_000;

/**
 * Asks the person at the terminal before a server's sampling request runs on their model (without
 * a terminal `keel run` declares no sampling: nothing runs on the person's model unseen).
 */
export function cliSamplingApproval(terminal: Terminal, note: (line: string) => void): Parameters<typeof approvedSampler>[0] {
  return async (server, request, modelId, _params, signal) => {
    note(l10n.t('MCP server "{0}" asks to run a request on your model ({1}).', server, modelId));
    const shown = request.length > shownRequestChars ? `${request.slice(0, shownRequestChars)}\n[… ${request.length - shownRequestChars}]` : request;
    terminal.write(`${shown.replace(/^/gm, '  | ')}\n`);
    const typed = await terminal.ask(`  ${l10n.t('Run it? yes or no [no]')} `, signal);
    return /^(y|yes)$/i.test((typed ?? '').trim()) ? { run: true } : { run: false };
  };
}

/** Asks at the terminal before a hook the workspace ships runs (without a terminal such hooks never run). */
export function cliHookApproval(terminal: Terminal, note: (line: string) => void): HookApprover {
  return async (hook) => {
    note(l10n.t("The workspace's {0} has a {1} hook{2}:", hook.source, hook.event, hook.matcher ? ` (${hook.matcher})` : ''));
    terminal.write(`${hook.command.replace(/^/gm, '  | ')}\n`);
    const typed = await terminal.ask(`  ${l10n.t('Run it, now and whenever it applies? yes or no [no]')} `, new AbortController().signal);
    return /^(y|yes)$/i.test((typed ?? '').trim());
  };
}
