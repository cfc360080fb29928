import * as l10n from '@vscode/l10n';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { approvalModes } from '../core/config';
import type { ApprovalMode } from '../core/config';
import { KeelError } from '../core/errors';
import { isPresetName, presetNames } from '../core/model';
import type { PresetName } from '../core/model';
import { bareWorktreeAsEmpty, worktreeNameAfterFlag } from './worktreeArg';
import { sandboxModes } from '../core/sandbox';
import type { SandboxMode } from '../core/sandbox';

/** The help text, in the CLI's language (a function: the locale is applied after this module loads). */
export function usage(): string {
  return l10n.t(
    "Usage:\n  keel run [options] PROMPT     run one request in a workspace and exit (\"-\" reads the prompt from stdin)\n  keel sessions [--cwd DIR] [--json]\n                                list the workspace's sessions, newest first\n  keel restore --session ID [--cwd DIR] [--turn N] [--force]\n                                put back every file Keel changed (commands included) from user\n                                turn N on (1-based; default the last); exits 1 and changes nothing\n                                when a file changed since, unless --force\n  keel --help | --version\n\nOptions for run:\n  --cwd DIR                 workspace root (default: current directory)\n  --add-dir DIR             another folder the agent may use (repeatable); paths into it start\n                            with its name; the session still belongs to the --cwd folder\n  --plan                    plan mode: read-only tools, the plan prompt and planModel\n  --approval MODE           manual | autoEdit | yolo (default manual; with no one to ask,\n                            whatever needs approval is denied and reported)\n  --sandbox MODE            auto | on | off: the OS sandbox for commands and local MCP servers\n                            (default auto: bubblewrap on Linux, sandbox-exec on macOS, where available;\n                            on: refuse commands without one; off: run them unconfined)\n  --agent NAME              work as this custom agent (.keel/agents, .claude/agents, .github/agents,\n                            ~/.keel/agents, ~/.claude/agents): its prompt, its tools (narrowing only)\n  --model ID                model id; with a base URL, the name the endpoint knows (qwen2.5-coder:7b)\n  --provider NAME           a known endpoint: openai | anthropic | google | vertex | bedrock | azure |\n                            deepseek | openrouter | groq | mistral | xai | ollama | lmstudio | vllm …\n                            (its base URL and key variable come with it, e.g. ANTHROPIC_API_KEY)\n  --base-url URL            an OpenAI-compatible Chat Completions endpoint (default $OPENAI_BASE_URL);\n                            with --provider, moves that endpoint\n  --api-key KEY             API key (default $OPENAI_API_KEY)\n  --session ID              resume a session of this workspace\n  --max-turns N             cap on model turns (default 50)\n  --output FORMAT           text | stream-json (default text)\n  --mcp-config FILE_OR_JSON MCP servers, in VS Code's mcp.json shape ({\"servers\": {...}}); repeatable\n  --mcp-elicitation MODE    how a server's questions are answered: ask (on a terminal; the default\n                            there) | decline (the default without one) | defaults (accept a form\n                            when every required field has a default; decline the rest)\n  --worktree [NAME]         work in a new git worktree on branch keel/NAME, made from the HEAD of\n                            the --cwd checkout, which stays untouched (NAME: a time stamp if left out)\n  --worktree-dir DIR        where worktrees are made (default: under $KEEL_HOME, outside the workspace)\n\nKeel stores sessions under $KEEL_HOME (default ~/.keel). Config: $KEEL_HOME/config.json is yours;\na workspace's .keel/config.json may only narrow it (a stricter mode, deny rules), never allow\nmore or choose where your key goes: what it tries is ignored with a warning.\nNetwork: HTTPS_PROXY / HTTP_PROXY / NO_PROXY (lowercase too) route the model, MCP and fetch\nrequests; NODE_EXTRA_CA_CERTS adds trusted certificates.",
  );
}

/** How `keel run` answers an MCP server's questions (elicitation). */
export const mcpElicitationModes = ['ask', 'decline', 'defaults'] as const;
export type McpElicitationMode = (typeof mcpElicitationModes)[number];

export interface RunArgs {
  command: 'run';
  prompt: string;
  cwd: string;
  /** More workspace folders (--add-dir), after cwd; the cwd stays the current project and names the workspace. */
  addDirs: string[];
  plan: boolean;
  approval?: ApprovalMode;
  sandbox?: SandboxMode;
  model?: string;
  /** `--agent NAME`: the run works as this custom agent. */
  agent?: string;
  provider?: PresetName;
  baseURL?: string;
  apiKey?: string;
  session?: string;
  maxTurns?: number;
  output: 'text' | 'stream-json';
  /** `--mcp-config` values as given: file paths or JSON text. */
  mcpConfigs: string[];
  mcpElicitation?: McpElicitationMode;
  /** `--worktree`: work in a new worktree; an empty name means "make one up". */
  worktree?: string;
  worktreeDir?: string;
}

export interface SessionsArgs {
  command: 'sessions';
  cwd: string;
  json: boolean;
}

export interface RestoreArgs {
  command: 'restore';
  cwd: string;
  session: string;
  /** 1-based user turn; undefined: the last. */
  turn?: number;
  force: boolean;
}

export type CliArgs = RunArgs | SessionsArgs | RestoreArgs | { command: 'help' } | { command: 'version' };

function usageError(message: string): KeelError {
  return new KeelError('usage', `${message}\n\n${usage()}`);
}

export function parseCliArgs(argv: string[], cwd: string): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({
      // A bare `--worktree` parses as empty; worktreeNameAfterFlag decides whether the next word names it.
      args: bareWorktreeAsEmpty(argv),
      allowPositionals: true,
      tokens: true,
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        cwd: { type: 'string' },
        'add-dir': { type: 'string', multiple: true },
        plan: { type: 'boolean' },
        approval: { type: 'string' },
        sandbox: { type: 'string' },
        model: { type: 'string' },
        agent: { type: 'string' },
        'base-url': { type: 'string' },
        provider: { type: 'string' },
        'api-key': { type: 'string' },
        session: { type: 'string' },
        'max-turns': { type: 'string' },
        output: { type: 'string' },
        json: { type: 'boolean' },
        'mcp-config': { type: 'string', multiple: true },
        'mcp-elicitation': { type: 'string' },
        turn: { type: 'string' },
        force: { type: 'boolean' },
        worktree: { type: 'string' },
        'worktree-dir': { type: 'string' },
      },
    });
  } catch (err) {
    throw usageError((err as Error).message);
  }
  const { values: v, tokens } = parsed;
  const named = worktreeNameAfterFlag(argv, tokens, parsed.positionals, usageError);
  const positionals = named.positionals;
  if (named.name !== undefined) v.worktree = named.name;
  if (v.help) return { command: 'help' };
  if (v.version) return { command: 'version' };
  const [command, ...rest] = positionals;
  if (command === 'sessions') {
    if (rest.length) throw usageError(l10n.t('"keel sessions" takes no arguments (got "{0}")', rest.join(' ')));
    return { command: 'sessions', cwd: v.cwd ?? cwd, json: v.json === true };
  }
  if (command === 'restore') {
    if (rest.length) throw usageError(l10n.t('"keel restore" takes no arguments (got "{0}")', rest.join(' ')));
    if (!v.session) throw usageError(l10n.t('"keel restore" needs --session ID (see "keel sessions").'));
    let turn: number | undefined;
    if (v.turn !== undefined) {
      turn = Number(v.turn);
      if (!Number.isInteger(turn) || turn < 1) throw usageError(l10n.t('--turn must be a positive whole number (got "{0}").', v.turn));
    }
    return { command: 'restore', cwd: v.cwd ?? cwd, session: v.session, turn, force: v.force === true };
  }
  if (command !== 'run') throw usageError(command ? l10n.t('Unknown command "{0}".', command) : l10n.t('No command given.'));
  const prompt = rest.join(' ').trim();
  if (!prompt) throw usageError(l10n.t('"keel run" needs a prompt.'));
  if (v.approval !== undefined && !(approvalModes as readonly string[]).includes(v.approval)) {
    throw usageError(l10n.t('--approval must be one of {0} (got "{1}").', approvalModes.join(', '), String(v.approval)));
  }
  if (v.sandbox !== undefined && !(sandboxModes as readonly string[]).includes(v.sandbox)) {
    throw usageError(l10n.t('--sandbox must be one of {0} (got "{1}").', sandboxModes.join(', '), String(v.sandbox)));
  }
  const elicitation = v['mcp-elicitation'];
  if (elicitation !== undefined && !(mcpElicitationModes as readonly string[]).includes(elicitation)) {
    throw usageError(l10n.t('--mcp-elicitation must be one of {0} (got "{1}").', mcpElicitationModes.join(', '), elicitation));
  }
  const output = v.output ?? 'text';
  if (output !== 'text' && output !== 'stream-json') throw usageError(l10n.t('--output must be text or stream-json (got "{0}").', output));
  let maxTurns: number | undefined;
  if (v['max-turns'] !== undefined) {
    maxTurns = Number(v['max-turns']);
    if (!Number.isInteger(maxTurns) || maxTurns < 1) throw usageError(l10n.t('--max-turns must be a positive whole number (got "{0}").', String(v['max-turns'])));
  }
  if (v.session !== undefined && v.worktree !== undefined) {
    throw usageError(l10n.t('--worktree starts a new conversation; --session goes on where that session worked (its own worktree, if it had one).'));
  }
  return {
    command: 'run',
    prompt,
    cwd: v.cwd ?? cwd,
    addDirs: (v['add-dir'] ?? []).map((dir) => resolve(cwd, dir)),
    plan: v.plan === true,
    approval: v.approval as ApprovalMode | undefined,
    sandbox: v.sandbox as SandboxMode | undefined,
    model: v.model,
    ...(v.agent !== undefined ? { agent: v.agent } : {}),
    provider: presetArg(v.provider),
    baseURL: v['base-url'],
    apiKey: v['api-key'],
    session: v.session,
    maxTurns,
    output,
    mcpConfigs: v['mcp-config'] ?? [],
    ...(elicitation !== undefined ? { mcpElicitation: elicitation as McpElicitationMode } : {}),
    ...(v.worktree !== undefined ? { worktree: v.worktree } : {}),
    ...(v['worktree-dir'] !== undefined ? { worktreeDir: resolve(cwd, v['worktree-dir']) } : {}),
  };
}

function presetArg(value: string | undefined): PresetName | undefined {
  if (value === undefined) return undefined;
  if (!isPresetName(value)) throw usageError(l10n.t('--provider must be one of {0} (got "{1}").', presetNames.join(', '), value));
  return value;
}
