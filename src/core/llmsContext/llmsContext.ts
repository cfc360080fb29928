import { join } from 'node:path';
import { errorMessage } from '../errors';
import type { EditorState } from '../editorState';
import type { Host } from '../host';
import { findShell } from '../tools/process/findShell';
import { ProjectInfoCache } from '../workspace/projectInfo';
import type { Workspace } from '../workspace/workspace';
import { defaultBudgets } from './contextTypes';
import type { ContextSection, GatheredContext, PluginContextSection, RuleInEffect, SectionBudgets } from './contextTypes';
import { listTree } from './directoryTree';
import { renderEditorState } from './editorSection';
import { renderEnvironment } from './environmentSection';
import { stampAll, stampsHold } from './fileStamps';
import type { Stamp } from './fileStamps';
import { FileTextCache } from './fileTextCache';
import { findGitRepo, gitStampPaths } from './gitRepo';
import { renderGitSection } from './gitSection';
import { takeGitSnapshot } from './gitSnapshot';
import type { GitSnapshot } from './gitSnapshot';
import { baseRules, nestedRules } from './rulesFiles';
import type { RuleFile } from './rulesFiles';
import { buildRulesSection, ruleBlock } from './rulesSection';
import { applyScopedRules, scopedRules } from './scopedRules';
import { discoverSkills, renderSkillList } from '../setup/skillFiles';
import type { Skill } from '../setup/skillFiles';
import { discoverCommandFiles } from '../setup/commandFiles';
import type { CommandFile } from '../setup/commandFiles';
import { discoverAgents } from '../setup/agentFiles';
import type { AgentFile } from '../setup/agentFiles';
import { estimateTokens, fitToBudget } from './tokenBudget';

export interface LlmsContextOptions {
  workspace: Workspace;
  host: Host;
  /** KEEL_HOME: its AGENTS.md holds the person's global rules, its skills/ the person's skills. */
  home: string;
  /** The person's home folder, for `~/.claude/skills`; absent: not looked at. */
  userHome?: string;
  budgets?: Partial<SectionBudgets>;
  tree?: { maxEntries?: number; maxPerDir?: number };
  /**
   * Longest a git snapshot is reused while nothing says the repository changed (HEAD, the
   * index and the reflog unchanged, no invalidate()). Edits made outside Keel only show up
   * after this, unless the host calls invalidate() from a file watcher (see markWatched()).
   */
  gitMaxAgeMs?: number;
  /** Milliseconds since the epoch; for tests. */
  clock?: () => number;
  /** Takes the git snapshot (tests count calls). */
  gitSnapshot?: (folder: string, signal?: AbortSignal) => Promise<GitSnapshot>;
  /** How long to wait for the host's editor state. */
  editorTimeoutMs?: number;
}

export interface GatherRequest {
  /** Folders the agent touched this session (absolute): rules files on the way down to them apply. */
  touched?: Iterable<string>;
  /** Files the conversation touched or mentioned (absolute): scoped rules whose globs match them apply. */
  files?: Iterable<string>;
  /** Sections plugins added through the `context` hook. */
  extra?: readonly PluginContextSection[];
  /**
   * The conversation's current project (multi-root): marked in the environment's project list;
   * the git and README sections are its. Default: the workspace's own current folder.
   */
  current?: string;
}

/** A rules file that became relevant mid-run, with its text as the model should see it. */
export interface NewRule {
  rule: RuleFile;
  block: string;
}

const maxPluginBudget = 8_000;
const readmeNames = /^readme(\.(md|markdown|rst|txt))?$/i;

/**
 * The context the model gets with every request: environment, git, directory structure,
 * rules files, README and editor state, each within its own token budget. Everything read
 * from disk is cached and revalidated by stamps (folder and file mtimes), so gathering again
 * is cheap; git runs once per gather at most, and only when its snapshot is stale.
 */
export class LlmsContext {
  private readonly opts: LlmsContextOptions;
  readonly budgets: SectionBudgets;
  private readonly files = new FileTextCache();
  private readonly projects = new ProjectInfoCache();
  private tree?: { text: string; cut: boolean; stamps: Map<string, Stamp> };
  /** Git snapshots by folder (each conversation's current project). */
  private readonly git = new Map<string, { snap: GitSnapshot; at: number; stamps: Map<string, Stamp> }>();
  /** Work under way, shared by gatherings that overlap (two sessions, a warm-up and a request). */
  private readonly gitTaking = new Map<string, { generation: number; promise: Promise<GitSnapshot> }>();
  private treeTaking?: { generation: number; promise: Promise<ContextSection> };
  private generation = 0;
  private watched = false;
  private shell?: Promise<string | undefined>;

  constructor(opts: LlmsContextOptions) {
    this.opts = opts;
    this.budgets = { ...defaultBudgets, ...opts.budgets };
  }

  /** Forget the directory listing and the git snapshot (after writes, or from a file watcher). */
  invalidate(): void {
    this.generation++;
    this.tree = undefined;
    this.git.clear();
    this.projects.clear();
  }

  /**
   * The host watches the workspace and calls invalidate() on every change, so a git snapshot
   * can be kept until then (up to five minutes) instead of gitMaxAgeMs.
   */
  markWatched(): void {
    this.watched = true;
  }

  /** Gathers once in the background so the first request finds the cache warm; failures are logged. */
  warmUp(): Promise<void> {
    return this.gather().then(
      () => undefined,
      (err: unknown) => this.opts.host.log('warn', `Warming up the workspace context failed: ${errorMessage(err)}`),
    );
  }

  async gather(req: GatherRequest = {}): Promise<GatheredContext> {
    const generation = this.generation;
    const workspace = req.current === undefined ? this.opts.workspace : this.opts.workspace.withCurrent(req.current);
    const [environment, git, structure, rules, skills, readme, editor] = await Promise.all([
      this.environmentSection(workspace),
      this.gitSection(generation, workspace.root),
      this.structureSection(generation),
      this.rulesSection(req.touched ?? [], req.files ?? []),
      this.skills(),
      this.readmeSection(workspace.root),
      this.editorSection(),
    ]);
    const sections: ContextSection[] = [environment, git, structure];
    if (rules.section) sections.push(rules.section);
    if (skills.length) sections.push(this.section('skills', 'Skills', renderSkillList(skills), this.budgets.skills, 'call the skill tool with a name you know'));
    if (readme) sections.push(readme);
    if (editor) sections.push(editor);
    for (const extra of req.extra ?? []) sections.push(this.pluginSection(extra));
    return { sections, rules: rules.inEffect, tokens: sections.reduce((n, s) => n + s.tokens, 0) };
  }

  /**
   * Nested rules files for `dirs` that are not in `known` (paths), as blocks to show the
   * model right away (e.g. after a tool touched a folder with its own AGENTS.md).
   */
  async newRulesFor(dirs: Iterable<string>, known: ReadonlySet<string>, files: Iterable<string> = []): Promise<NewRule[]> {
    const [nested, scoped] = await Promise.all([nestedRules(this.opts.workspace, dirs, this.files), scopedRules(this.opts.workspace, this.files)]);
    const found: { rule: RuleFile; text?: string }[] = [
      ...applyScopedRules(scoped, files, this.opts.workspace).filter((a) => a.rule.trigger === 'files'),
      ...nested.map((rule) => ({ rule })),
    ].filter((f) => !known.has(f.rule.path));
    const out: NewRule[] = [];
    for (const { rule, text: body } of found) {
      const text = body ?? (await this.files.text(rule.path));
      if (text === undefined) continue;
      const fitted = fitToBudget(text.trim(), Math.floor(this.budgets.rules * 0.6), `read ${rule.display} for the rest`);
      out.push({ rule, block: ruleBlock(rule, fitted.text) });
    }
    return out;
  }

  /** The skills of the workspace and the person (`.keel/.claude/.github/skills`, `~/.keel/skills`, `~/.claude/skills`). */
  skills(): Promise<Skill[]> {
    return discoverSkills(this.opts.workspace, this.homes(), this.files);
  }

  /** Command files: `.keel/commands`, `.claude/commands`, `.github/prompts`, `~/.keel/commands`, `~/.claude/commands`. */
  commandFiles(): Promise<CommandFile[]> {
    return discoverCommandFiles(this.opts.workspace, this.homes(), this.files);
  }

  /** Agent definitions: `.keel/agents`, `.claude/agents`, `.github/agents/*.agent.md`, `~/.keel/agents`, `~/.claude/agents`. */
  agents(): Promise<AgentFile[]> {
    return discoverAgents(this.opts.workspace, this.homes(), this.files);
  }

  private homes(): { keel: string; user?: string } {
    return { keel: this.opts.home, ...(this.opts.userHome ? { user: this.opts.userHome } : {}) };
  }

  private section(id: string, title: string, raw: string, budget: number, hint: string): ContextSection {
    const fitted = fitToBudget(raw, budget, hint);
    return { id, title, text: fitted.text, tokens: fitted.tokens, budget, cut: fitted.cut };
  }

  private async environmentSection(workspace: Workspace): Promise<ContextSection> {
    this.shell ??= findShell();
    const [shell, projects] = await Promise.all([this.shell, this.projects.describe(workspace)]);
    const text = renderEnvironment({
      host: this.opts.host.kind,
      folders: workspace.folders,
      projects,
      shell,
      now: new Date(this.clock()),
    });
    return this.section('environment', 'Environment', text, this.budgets.environment, '');
  }

  private async gitSection(generation: number, folder: string): Promise<ContextSection> {
    const snap = await this.gitSnapshot(generation, folder);
    return this.section('git', 'Git', renderGitSection(snap), this.budgets.git, 'run git yourself for more');
  }

  private async gitSnapshot(generation: number, folder: string): Promise<GitSnapshot> {
    const cached = this.git.get(folder);
    const maxAge = this.watched ? 300_000 : (this.opts.gitMaxAgeMs ?? 10_000);
    if (cached && this.clock() - cached.at < maxAge && (await stampsHold(cached.stamps))) return cached.snap;
    const taking = this.gitTaking.get(folder);
    if (taking?.generation === generation) return taking.promise;
    const promise = this.takeGit(generation, folder);
    this.gitTaking.set(folder, { generation, promise });
    try {
      return await promise;
    } finally {
      if (this.gitTaking.get(folder)?.promise === promise) this.gitTaking.delete(folder);
    }
  }

  /** git is not cancelled with the request: it is bounded by its own timeout and its answer is cached. */
  private async takeGit(generation: number, root: string): Promise<GitSnapshot> {
    const take = this.opts.gitSnapshot ?? takeGitSnapshot;
    const at = this.clock();
    // Stamps first: a change while git runs then shows up as a changed stamp next time.
    const repo = await findGitRepo(root);
    const stamps = await stampAll(repo ? gitStampPaths(repo) : []);
    const snap = await take(root);
    if (generation === this.generation) this.git.set(root, { snap, at, stamps });
    return snap;
  }

  private async structureSection(generation: number): Promise<ContextSection> {
    const budget = this.budgets.structure;
    const cached = this.tree;
    if (cached && (await stampsHold(cached.stamps))) {
      return { id: 'structure', title: 'Directory structure', text: cached.text, tokens: estimateTokens(cached.text), budget, cut: cached.cut };
    }
    if (this.treeTaking?.generation === generation) return this.treeTaking.promise;
    const promise = this.listStructure(generation);
    this.treeTaking = { generation, promise };
    try {
      return await promise;
    } finally {
      if (this.treeTaking?.promise === promise) this.treeTaking = undefined;
    }
  }

  private async listStructure(generation: number): Promise<ContextSection> {
    const budget = this.budgets.structure;
    const folders = this.opts.workspace.folders;
    const maxEntries = Math.max(20, Math.floor((this.opts.tree?.maxEntries ?? 400) / folders.length));
    const maxPerDir = this.opts.tree?.maxPerDir ?? 40;
    const listings = await Promise.all(
      folders.map(async (f) => listTree(f.path, f.name, { maxEntries, maxPerDir, repoTop: (await findGitRepo(f.path))?.top })),
    );
    const stamps = new Map<string, Stamp>();
    for (const l of listings) for (const [k, v] of l.stamps) stamps.set(k, v);
    const problems = listings.flatMap((l) => l.problems);
    const intro =
      'Files in the workspace, breadth-first (folders first; .git, node_modules and .gitignore\'d files left out; ' +
      '"name/ …" is a folder not expanded here). Use ls, glob or grep to look further.';
    const parts = [intro, ...listings.map((l) => l.text)];
    if (problems.length) parts.push(`(could not read: ${problems.slice(0, 5).join('; ')})`);
    const fitted = fitToBudget(parts.join('\n'), budget, 'use ls or glob to see more');
    const cut = fitted.cut || listings.some((l) => l.truncated);
    if (generation === this.generation) this.tree = { text: fitted.text, cut, stamps };
    return { id: 'structure', title: 'Directory structure', text: fitted.text, tokens: fitted.tokens, budget, cut };
  }

  /**
   * Rules in order: global, workspace roots, the other agents' scoped rules that apply
   * (always, then by the files in play), nested ones shallow to deep, and last the ones
   * listed by their description.
   */
  private async rulesSection(touched: Iterable<string>, inPlay: Iterable<string>): Promise<{ section?: ContextSection; inEffect: RuleInEffect[] }> {
    const { workspace, home } = this.opts;
    const dirs = [...touched];
    const [base, nested, scoped] = await Promise.all([
      baseRules(workspace, home, this.files),
      nestedRules(workspace, dirs, this.files),
      scopedRules(workspace, this.files),
    ]);
    const applied = applyScopedRules(scoped, inPlay, workspace);
    const files: { rule: RuleFile; text: string }[] = applied.filter((a) => a.rule.trigger !== 'described');
    for (const rule of [...base, ...nested]) {
      try {
        const text = await this.files.text(rule.path);
        if (text !== undefined) files.push({ rule, text });
      } catch (err) {
        files.push({ rule, text: `(could not read ${rule.display}: ${errorMessage(err)})` });
      }
    }
    // Base rules first: they were pushed after the scoped ones only to be read in one loop.
    files.sort((a, b) => rank(a.rule) - rank(b.rule));
    files.push(...applied.filter((a) => a.rule.trigger === 'described'));
    const built = buildRulesSection(files, this.budgets.rules);
    if (built.rules.length === 0) return { inEffect: [] };
    return {
      section: { id: 'rules', title: 'Rules', text: built.text, tokens: built.tokens, budget: this.budgets.rules, cut: built.cut },
      inEffect: built.rules,
    };
  }

  private async readmeSection(root: string): Promise<ContextSection | undefined> {
    const name = (await this.files.names(root)).filter((n) => readmeNames.test(n)).sort()[0];
    if (!name) return undefined;
    const text = await this.files.text(join(root, name));
    if (text === undefined || text.trim() === '') return undefined;
    const section = this.section('readme', name, text.trim(), this.budgets.readme, `read ${name} for the rest`);
    return { ...section, text: `From ${name}:\n${section.text}`, tokens: section.tokens + estimateTokens(`From ${name}:\n`) };
  }

  private async editorSection(): Promise<ContextSection | undefined> {
    const host = this.opts.host;
    if (!host.editorState) return undefined;
    let state: EditorState;
    try {
      state = await withTimeout(host.editorState(), this.opts.editorTimeoutMs ?? 2_000, 'the editor did not answer in time');
    } catch (err) {
      host.log('warn', `Editor state for the model's context unavailable: ${errorMessage(err)}`);
      return this.section('editor', 'Editor', `Editor state unavailable: ${errorMessage(err)}`, this.budgets.editor, '');
    }
    return this.section('editor', 'Editor', renderEditorState(state, this.opts.workspace), this.budgets.editor, 'ask for problems with @problems');
  }

  private pluginSection(extra: PluginContextSection): ContextSection {
    const budget = Math.min(maxPluginBudget, Math.max(1, Math.floor(extra.budgetTokens ?? this.budgets.plugin)));
    return this.section(`plugin:${extra.title}`, extra.title, extra.text, budget, '');
  }

  private clock(): number {
    return this.opts.clock ? this.opts.clock() : Date.now();
  }
}

/** Order within the rules section: global, workspace roots, scoped always, scoped by file, nested. */
function rank(rule: RuleFile): number {
  if (rule.scope === 'global') return 0;
  if (rule.scope === 'nested') return 4;
  if (rule.trigger === 'always') return 2;
  if (rule.trigger === 'files') return 3;
  return 1;
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
