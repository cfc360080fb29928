import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { approvalModes } from '../core/config/configSchema';
import type { ApprovalMode } from '../core/config/configSchema';
import { KeelError } from '../core/errors';
import { isPresetName, presetNames } from '../core/model/providerPresets';
import type { PresetName } from '../core/model/providerPresets';
import { sandboxModes } from '../core/sandbox/sandboxTypes';
import type { SandboxMode } from '../core/sandbox/sandboxTypes';

export const usage = `Usage:
  keel run [options] PROMPT     run one request in a workspace and exit ("-" reads the prompt from stdin)
  keel sessions [--cwd DIR] [--json]
                                list the workspace's sessions, newest first
  keel --help | --version

Options for run:
  --cwd DIR                 workspace root (default: current directory)
  --add-dir DIR             another folder the agent may use (repeatable); paths into it start
                            with its name; the session still belongs to the --cwd folder
  --plan                    plan mode: read-only tools, the plan prompt and planModel
  --approval MODE           manual | autoEdit | yolo (default manual; with no one to ask,
                            whatever needs approval is denied and reported)
  --sandbox MODE            auto | on | off: the OS sandbox for commands and local MCP servers
                            (default auto: bubblewrap on Linux, sandbox-exec on macOS, where available;
                            on: refuse commands without one; off: run them unconfined)
  --model ID                model id; with a base URL, the name the endpoint knows (qwen2.5-coder:7b)
  --provider NAME           a known endpoint: openai | deepseek | openrouter | ollama | lmstudio | vllm
                            (its base URL and key variable come with it, e.g. DEEPSEEK_API_KEY)
  --base-url URL            an OpenAI-compatible Chat Completions endpoint (default $OPENAI_BASE_URL);
                            with --provider, moves that endpoint
  --api-key KEY             API key (default $OPENAI_API_KEY)
  --session ID              resume a session of this workspace
  --max-turns N             cap on model turns (default 50)
  --output FORMAT           text | stream-json (default text)
  --mcp-config FILE_OR_JSON MCP servers, in VS Code's mcp.json shape ({"servers": {...}}); repeatable
  --worktree[=NAME]         work in a new git worktree on branch keel/NAME, made from the HEAD of
                            the --cwd checkout, which stays untouched (NAME: a time stamp if left out)
  --worktree-dir DIR        where worktrees are made (default: under $KEEL_HOME, outside the workspace)

Keel stores sessions under $KEEL_HOME (default ~/.keel). Config: $KEEL_HOME/config.json is yours;
a workspace's .keel/config.json may only narrow it (a stricter mode, deny rules), never allow
more or choose where your key goes: what it tries is ignored with a warning.`;

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
  provider?: PresetName;
  baseURL?: string;
  apiKey?: string;
  session?: string;
  maxTurns?: number;
  output: 'text' | 'stream-json';
  /** `--mcp-config` values as given: file paths or JSON text. */
  mcpConfigs: string[];
  /** `--worktree`: work in a new worktree; an empty name means "make one up". */
  worktree?: string;
  worktreeDir?: string;
}

export interface SessionsArgs {
  command: 'sessions';
  cwd: string;
  json: boolean;
}

export type CliArgs = RunArgs | SessionsArgs | { command: 'help' } | { command: 'version' };

function usageError(message: string): KeelError {
  return new KeelError('usage', `${message}\n\n${usage}`);
}

export function parseCliArgs(argv: string[], cwd: string): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({
      // `--worktree` takes its name only as `--worktree=NAME`, so a prompt after it is never taken for one.
      args: argv.map((a) => (a === '--worktree' ? '--worktree=' : a)),
      allowPositionals: true,
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
        'base-url': { type: 'string' },
        provider: { type: 'string' },
        'api-key': { type: 'string' },
        session: { type: 'string' },
        'max-turns': { type: 'string' },
        output: { type: 'string' },
        json: { type: 'boolean' },
        'mcp-config': { type: 'string', multiple: true },
        worktree: { type: 'string' },
        'worktree-dir': { type: 'string' },
      },
    });
  } catch (err) {
    throw usageError((err as Error).message);
  }
  const { values: v, positionals } = parsed;
  if (v.help) return { command: 'help' };
  if (v.version) return { command: 'version' };
  const [command, ...rest] = positionals;
  if (command === 'sessions') {
    if (rest.length) throw usageError(`"keel sessions" takes no arguments (got "${rest.join(' ')}")`);
    return { command: 'sessions', cwd: v.cwd ?? cwd, json: v.json === true };
  }
  if (command !== 'run') throw usageError(command ? `Unknown command "${command}".` : 'No command given.');
  const prompt = rest.join(' ').trim();
  if (!prompt) throw usageError('"keel run" needs a prompt.');
  if (v.approval !== undefined && !(approvalModes as readonly string[]).includes(v.approval)) {
    throw usageError(`--approval must be one of ${approvalModes.join(', ')} (got "${v.approval}").`);
  }
  if (v.sandbox !== undefined && !(sandboxModes as readonly string[]).includes(v.sandbox)) {
    throw usageError(`--sandbox must be one of ${sandboxModes.join(', ')} (got "${v.sandbox}").`);
  }
  const output = v.output ?? 'text';
  if (output !== 'text' && output !== 'stream-json') throw usageError(`--output must be text or stream-json (got "${output}").`);
  let maxTurns: number | undefined;
  if (v['max-turns'] !== undefined) {
    maxTurns = Number(v['max-turns']);
    if (!Number.isInteger(maxTurns) || maxTurns < 1) throw usageError(`--max-turns must be a positive whole number (got "${v['max-turns']}").`);
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
    provider: presetArg(v.provider),
    baseURL: v['base-url'],
    apiKey: v['api-key'],
    session: v.session,
    maxTurns,
    output,
    mcpConfigs: v['mcp-config'] ?? [],
    ...(v.worktree !== undefined ? { worktree: v.worktree } : {}),
    ...(v['worktree-dir'] !== undefined ? { worktreeDir: resolve(cwd, v['worktree-dir']) } : {}),
  };
}

function presetArg(value: string | undefined): PresetName | undefined {
  if (value === undefined) return undefined;
  if (!isPresetName(value)) throw usageError(`--provider must be one of ${presetNames.join(', ')} (got "${value}").`);
  return value;
}
