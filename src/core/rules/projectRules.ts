import type { ModelMessage, UserContent } from 'ai';
import { errorMessage } from '../errors';
import type { Host } from '../host';
import type { RunMode } from '../plugins/pluginTypes';
import type { ProjectEvent } from '../projectTypes';
import type { Session } from '../session/session';
import { toDisplayText } from '../loop/toolOutput';
import type { ToolCategory, ToolResult } from '../tools/tool';
import type { Workspace } from '../workspace/workspace';
import type { Scope, Value } from './expressionEval';
import { RuleEngine } from './ruleEngine';
import { RulesLoader, userRulesPath, workspaceRulesPath } from './ruleFiles';
import type { RulesFile } from './ruleFiles';
import { dedupeActions, ruleText } from './ruleMessages';
import type { PendingAction } from './ruleMessages';
import type { RuleEventName } from './ruleSchema';
import type { CompiledRule } from './ruleTypes';
import { detectTestCommand, runsTests } from './testCommand';

export interface ProjectRulesOptions {
  workspace: Workspace;
  home: string;
  host: Host;
  session: Session;
  trusted: boolean;
  approvalMode(): string;
  now?: () => number;
}

/** What one task (a prompt and the work it starts) has done so far, for conditions. */
interface TaskFacts {
  number: number;
  edits: string[];
  commands: string[];
  testsRun: boolean;
  toolCalls: number;
  failedTools: number;
}

export interface ToolResultInfo {
  toolCallId: string;
  tool: string;
  category: ToolCategory | undefined;
  input: unknown;
  result: ToolResult;
}

const OUTPUT_CHARS = 10_000;

/**
 * A conversation's event rules: raises the events Project reports, runs the rules, records
 * what fired in the session log and the run's events, and hands the reminders and context
 * to the next model request.
 */
export class ProjectRules {
  private readonly opts: ProjectRulesOptions;
  private readonly engine: RuleEngine;
  private readonly loader = new RulesLoader();
  private rules: readonly CompiledRule[] = [];
  private pending: PendingAction[] = [];
  private started = false;
  private mode: RunMode = 'act';
  private turn = 0;
  /** The person's message of the run: what rules fired on its events are anchored to. */
  private promptId: string | undefined;
  private task: TaskFacts = newTask(0);
  private testCommand: string | null = null;
  private announced = '';
  private readonly shown = new Set<string>();
  private readonly paths = new Map<string, readonly string[]>();
  /** Messages in the conversation when the run's prompt was sent (counting them per event would cost O(n)). */
  private messages = 0;

  constructor(opts: ProjectRulesOptions) {
    this.opts = opts;
    this.engine = new RuleEngine(opts.now ? { now: opts.now } : {});
    for (const record of opts.session.rulesFired()) {
      for (const f of record.fired) if (f.throttleKey !== undefined) this.engine.remember(f.throttleKey, Date.parse(record.ts));
    }
  }

  /**
   * A run starts: rules files are read again, and `session_start` (once) and `prompt_submit` are
   * raised. Called before the person's message is logged (its actions go into that message),
   * with the id it will be logged under, which the rules that fire are anchored to.
   */
  beginRun(mode: RunMode, prompt: string, emit: (e: ProjectEvent) => void, promptId: string): void {
    this.mode = mode;
    this.turn = 0;
    this.promptId = promptId;
    this.task = newTask(this.task.number + 1);
    this.paths.clear();
    this.reload(emit);
    // The person's message is not in the log yet: count it.
    this.messages = this.opts.session.history().length + 1;
    if (!this.started) {
      this.started = true;
      const resumed = this.messages > 1;
      this.raise('session_start', { resumed }, emit);
    }
    this.raise('prompt_submit', { prompt, mode }, emit);
  }

  /** The absolute paths an approved tool call touches, from its preview (declined and refused calls have none). */
  notePaths(toolCallId: string, paths: readonly string[]): void {
    this.paths.set(toolCallId, paths);
  }

  toolResult(info: ToolResultInfo, emit: (e: ProjectEvent) => void): void {
    const { workspace } = this.opts;
    // Only an approved call gets here with paths noted: a declined command did not run the tests.
    const ran = this.paths.has(info.toolCallId);
    const paths = (this.paths.get(info.toolCallId) ?? []).map((p) => workspace.display(p));
    this.paths.delete(info.toolCallId);
    const isError = info.result.isError === true;
    const command = commandOf(info.input);
    this.task.toolCalls++;
    if (isError) this.task.failedTools++;
    if (info.category === 'write' && !isError) for (const p of paths) if (!this.task.edits.includes(p)) this.task.edits.push(p);
    if (command !== undefined) {
      this.task.commands.push(command);
      // Failing tests were still run: the reminder is about running them, not about passing.
      if (ran && runsTests(command, this.testCommand)) this.task.testsRun = true;
    }
    const output = toDisplayText(info.result);
    const event: Record<string, Value> = {
      tool: info.tool,
      category: info.category ?? null,
      path: paths[0] ?? null,
      paths,
      isError,
      output: output.slice(0, OUTPUT_CHARS),
    };
    if (command !== undefined) event.command = command;
    this.raise('tool_result', event, emit, info.toolCallId);
  }

  /** The run ended: `plan_ready` after a plan, `task_complete` otherwise. Their reminders wait for the next request. */
  endRun(status: string, emit: (e: ProjectEvent) => void): void {
    this.raise(this.mode === 'plan' ? 'plan_ready' : 'task_complete', { status }, emit);
  }

  /**
   * The text of the actions that fired since it was last taken, for the model ('' when none):
   * the run's first take goes into the person's message, later ones become messages of their own.
   */
  takeText(): string {
    const actions = dedupeActions(this.pending);
    this.pending = [];
    return ruleText(actions);
  }

  /**
   * What the conversation gets before `turn`: a message with the rules' actions since the last
   * turn, or nothing. The Loop keeps it in the history and the log records it, so every later
   * request starts with what this one sent (a provider's prompt cache keeps the prefix).
   */
  prepareTurn(turn: number): ModelMessage | undefined {
    this.turn = turn;
    const text = this.takeText();
    return text === '' ? undefined : { role: 'user', content: [{ type: 'text', text }] };
  }

  private reload(emit: (e: ProjectEvent) => void): void {
    const files: RulesFile[] = [
      ...this.opts.workspace.folders.map((f) => ({ path: workspaceRulesPath(f.path), source: 'workspace' as const })),
      { path: userRulesPath(this.opts.home), source: 'user' },
    ];
    const loaded = this.loader.load(files);
    this.rules = loaded.rules;
    try {
      this.testCommand = detectTestCommand(this.opts.workspace.root);
    } catch (err) {
      this.testCommand = null;
      loaded.problems.push(`Could not look for the workspace's test command: ${errorMessage(err)}`);
    }
    this.report(loaded.problems, emit, true);
  }

  private raise(name: RuleEventName, data: Record<string, Value>, emit: (e: ProjectEvent) => void, toolCallId?: string): void {
    if (!this.rules.some((r) => r.on.has(name))) return;
    const scope = this.scope(name, data);
    const run = this.engine.run(this.rules, name, scope, this.task.number);
    this.report(run.problems, emit, false);
    if (run.fired.length === 0) return;
    for (const f of run.fired) {
      for (const a of f.actions) if (a.type !== 'notify') this.pending.push({ ...a, ruleId: f.id });
      this.opts.host.log('info', `rule ${f.id} (${f.source}) fired on ${name}: ${f.actions.map((a) => a.type).join(', ') || 'no new actions'}`);
    }
    const fired = run.fired.map((f) => ({ ...f, actions: f.actions.map((a) => ({ ...a })) }));
    if (!this.opts.session.readOnly) {
      // Before the run's first turn the prompt (logged just after), later the conversation's last message.
      const leaf = this.turn === 0 ? (this.promptId ?? this.opts.session.leafId) : this.opts.session.leafId;
      const anchor = toolCallId !== undefined ? { toolCallId } : leaf !== null ? { messageId: leaf } : {};
      this.opts.session.appendRules({ event: name, ...anchor, fired });
    }
    emit(toolCallId === undefined ? { type: 'rules_fired', event: name, fired } : { type: 'rules_fired', event: name, fired, toolCallId });
  }

  /** Problems go to the log each time, and to the person when they differ from what was last shown. */
  private report(problems: readonly string[], emit: (e: ProjectEvent) => void, fromLoad: boolean): void {
    for (const p of problems) this.opts.host.log('warn', p);
    let news = [...problems];
    if (fromLoad) {
      const key = problems.join('\n');
      if (key === this.announced) return;
      this.announced = key;
    } else {
      news = news.filter((p) => !this.shown.has(p));
      for (const p of news) this.shown.add(p);
    }
    if (news.length > 0) emit({ type: 'rule_problems', problems: news });
  }

  private scope(name: RuleEventName, data: Record<string, Value>): Scope {
    const { workspace, session } = this.opts;
    return {
      event: { name, ...data },
      session: {
        id: session.id,
        mode: this.mode,
        turn: this.turn,
        approvalMode: this.opts.approvalMode(),
        messages: this.messages,
      },
      task: {
        number: this.task.number,
        edits: [...this.task.edits],
        commands: [...this.task.commands],
        testsRun: this.task.testsRun,
        toolCalls: this.task.toolCalls,
        failedTools: this.task.failedTools,
      },
      workspace: {
        name: workspace.folders[0]?.name ?? '',
        folders: workspace.folders.map((f) => f.name),
        testCommand: this.testCommand,
        trusted: this.opts.trusted,
      },
    };
  }
}

function newTask(number: number): TaskFacts {
  return { number, edits: [], commands: [], testsRun: false, toolCalls: 0, failedTools: 0 };
}

function commandOf(input: unknown): string | undefined {
  if (!input || typeof input !== 'object') return undefined;
  const command = (input as { command?: unknown }).command;
  return typeof command === 'string' ? command : undefined;
}

/** The text of what the person sent, for `event.prompt`. */
export function promptText(input: string | UserContent): string {
  if (typeof input === 'string') return input;
  return input.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
}

/**
 * Puts the rules' text in front of the person's message when that is the last one: many chat
 * templates and providers refuse two user messages in a row. After tool results it is a
 * message of its own.
 */
