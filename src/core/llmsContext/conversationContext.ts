import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errorMessage } from '../errors';
import type { Host } from '../host';
import type { PluginManager } from '../plugins/pluginManager';
import type { RunMode } from '../plugins/pluginTypes';
import type { SessionEntry } from '../session/session';
import type { ToolCategory, ToolResult } from '../tools/tool';
import type { Workspace } from '../workspace/workspace';
import type { GatheredContext, PluginContextSection, RuleInEffect } from './contextTypes';
import type { LlmsContext } from './llmsContext';
import { touchedPathsIn } from './touchedPaths';
import { errorCode } from '../errorCode';
import { PathError } from '../workspace/pathError';

export interface ConversationContextDeps {
  llmsContext: LlmsContext;
  plugins: PluginManager;
  host: Host;
  sessionId: string;
  workspace: Workspace;
  /** The session so far: the folders its tool calls touched count as touched after a resume. */
  entries?: () => SessionEntry[];
}

/**
 * The workspace context of one conversation: what LlmsContext gathers plus what plugins add,
 * and the folders the agent touched, whose nested rules files then apply. A rules file that
 * starts to apply mid-run is shown with the tool result that touched its folder.
 */
export class ConversationContext {
  private readonly deps: ConversationContextDeps;
  private readonly touched = new Set<string>();
  /** Paths the agent's tools named: scoped rules (`applyTo`, `globs`) match against them. */
  private readonly files = new Set<string>();
  /** Rules files the model has been shown, so each is shown once per request. */
  private readonly shown = new Set<string>();
  private seeded = false;

  constructor(deps: ConversationContextDeps) {
    this.deps = deps;
  }

  /**
   * Gathers the context for a request; never fails the request (a failure becomes `note`, for
   * the model, and a log line). `current`: the conversation's current project (a folder path),
   * for the project list, git and README.
   */
  async gather(mode: RunMode, current?: string): Promise<{ gathered: GatheredContext } | { note: string }> {
    const { llmsContext, plugins, host, sessionId } = this.deps;
    const extra = await plugins.apply<unknown[]>({ hook: 'context', memo: [], args: [{ mode, sessionId }], type: 'SeriesMerge' });
    let gathered: GatheredContext;
    try {
      await this.seed();
      gathered = await llmsContext.gather({ touched: this.touched, files: this.files, extra: this.validSections(extra), ...(current ? { current } : {}) });
    } catch (err) {
      host.log('error', `Gathering the workspace context failed: ${errorMessage(err)}`);
      return { note: `(Keel could not gather the workspace context: ${errorMessage(err)}. Look around with the tools.)` };
    }
    this.shown.clear();
    for (const r of gathered.rules) if (r.status === 'included' || r.status === 'cut') this.shown.add(r.path);
    return { gathered };
  }

  /** The rules files in effect for this conversation now, for a view that shows them outside a run. */
  async rulesInEffect(): Promise<RuleInEffect[]> {
    await this.seed();
    return (await this.deps.llmsContext.gather({ touched: this.touched, files: this.files })).rules;
  }

  /**
   * Files and folders the person mentioned (`@file`, `@folder`; as typed): their nested and
   * scoped rules apply from this message on. A path outside the workspace is skipped here;
   * the mention itself reports it.
   */
  async mentioned(paths: readonly string[]): Promise<void> {
    for (const p of paths) {
      let abs: string;
      try {
        abs = await this.deps.workspace.resolve(p);
      } catch (err) {
        if (!(err instanceof PathError)) throw err;
        continue;
      }
      this.files.add(abs);
      this.touched.add(await folderOf(abs));
    }
  }

  /** Once per conversation: the folders an earlier part of the session touched (after a resume). */
  private async seed(): Promise<void> {
    if (this.seeded || !this.deps.entries) return;
    this.seeded = true;
    const paths = await touchedPathsIn(this.deps.entries(), this.deps.workspace);
    for (const p of paths) this.files.add(p);
    for (const folder of await Promise.all(paths.map(folderOf))) this.touched.add(folder);
  }

  /**
   * After a tool ran: writes and commands make the cached listing and git state stale; paths
   * it touched may bring nested rules into effect, which are added to its result.
   */
  async afterTool(category: ToolCategory, paths: readonly string[], result: ToolResult): Promise<ToolResult> {
    if (category === 'write' || category === 'command') this.deps.llmsContext.invalidate();
    if (paths.length === 0) return result;
    try {
      return await this.withNewRules(paths, result);
    } catch (err) {
      // The tool did run: its result stands; only the rules lookup is lost, and said so in the log.
      this.deps.host.log('warn', `Looking for rules files near ${paths.join(', ')} failed: ${errorMessage(err)}`);
      return result;
    }
  }

  private async withNewRules(paths: readonly string[], result: ToolResult): Promise<ToolResult> {
    const { llmsContext } = this.deps;
    const folders = await Promise.all(paths.map(folderOf));
    const fresh = folders.filter((f) => !this.touched.has(f));
    for (const f of fresh) this.touched.add(f);
    const freshFiles = paths.filter((p) => !this.files.has(p));
    for (const p of freshFiles) this.files.add(p);
    if ((fresh.length === 0 && freshFiles.length === 0) || result.isError) return result;
    const rules = await llmsContext.newRulesFor(fresh, this.shown, freshFiles);
    if (rules.length === 0) return result;
    for (const r of rules) this.shown.add(r.rule.path);
    const note = `\n\n${rules.length === 1 ? 'A rules file applies' : 'Rules files apply'} to the files this touched; follow ${rules.length === 1 ? 'it' : 'them'}:\n${rules.map((r) => r.block).join('\n')}`;
    if (typeof result.output === 'string') return { ...result, output: result.output + note };
    return { ...result, output: [...result.output, { type: 'text', text: note.trimStart() }] };
  }

  private validSections(values: unknown[]): PluginContextSection[] {
    const out: PluginContextSection[] = [];
    for (const v of values) {
      const s = v as Partial<PluginContextSection> | null;
      if (s && typeof s.title === 'string' && typeof s.text === 'string' && (s.budgetTokens === undefined || typeof s.budgetTokens === 'number')) {
        out.push({ title: s.title, text: s.text, ...(s.budgetTokens !== undefined ? { budgetTokens: s.budgetTokens } : {}) });
      } else {
        this.deps.host.log('warn', 'A plugin returned a context section without a string title and text; it was left out.');
      }
    }
    return out;
  }
}

/** The folder a touched path governs: itself for a folder, its parent for a file (or one not there yet). */
async function folderOf(path: string): Promise<string> {
  try {
    return (await stat(path)).isDirectory() ? path : dirname(path);
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return dirname(path);
    throw err;
  }
}
