import { dirname, join, sep } from 'node:path';
import type { Workspace } from '../workspace/workspace';
import type { FileTextCache } from './fileTextCache';

/** Where a rules file comes from: the person's own (KEEL_HOME), a workspace folder's root, or a folder below it. */
export type RuleScope = 'global' | 'workspace' | 'nested';

/**
 * Why a workspace's scoped rule (the other agents' formats) applies: `always`, `files` (its
 * globs match a file the conversation touched), or `described` (listed by its description,
 * for the model to read when it fits the task).
 */
export type RuleTrigger = 'always' | 'files' | 'described';

export interface RuleFile {
  path: string;
  /** As the person and the model see it: relative to its workspace folder, or `~keel/AGENTS.md`. */
  display: string;
  scope: RuleScope;
  /** For nested rules: the folder whose files they govern, as displayed. */
  appliesTo?: string;
  /** For scoped rules (`.github/instructions`, `.cursor/rules`, …): why it applies. */
  trigger?: RuleTrigger;
  /** For `files`: the glob and the file (as displayed) that matched it. */
  matched?: { glob: string; file: string };
  /** For `described`: what the rule is about, from its front matter. */
  description?: string;
}

export const rulesFileNames: readonly string[] = ['AGENTS.md', 'CLAUDE.md'];
const rulesFolder = ['.keel', 'rules'];

/** The rules files directly in `dir`: AGENTS.md, CLAUDE.md, then `.keel/rules/*.md` by name. */
export async function rulesFilesIn(dir: string, cache: FileTextCache): Promise<string[]> {
  const names = await cache.names(dir);
  const out: string[] = [];
  for (const name of rulesFileNames.filter((n) => names.includes(n))) {
    // An empty file holds no rules (and may be the command sandbox's placeholder for a missing one).
    if ((await cache.text(join(dir, name)))?.trim()) out.push(join(dir, name));
  }
  if (names.includes('.keel')) {
    const folder = join(dir, ...rulesFolder);
    const md = (await cache.names(folder)).filter((n) => n.toLowerCase().endsWith('.md')).sort();
    out.push(...md.map((n) => join(folder, n)));
  }
  return out;
}

/** The global rules file and each workspace folder's root rules, in that order. */
export async function baseRules(workspace: Workspace, home: string, cache: FileTextCache): Promise<RuleFile[]> {
  const out: RuleFile[] = [];
  if ((await cache.text(join(home, 'AGENTS.md'))) !== undefined) {
    out.push({ path: join(home, 'AGENTS.md'), display: '~keel/AGENTS.md (your global rules)', scope: 'global' });
  }
  const perFolder = await Promise.all(workspace.folders.map((f) => rulesFilesIn(f.path, cache)));
  for (const paths of perFolder) {
    for (const path of paths) out.push({ path, display: workspace.display(path), scope: 'workspace' });
  }
  return out;
}

/**
 * Rules files in the folders between a workspace folder's root (not included) and each of
 * `dirs` (included), shallower first: the rules that govern files the agent touched.
 */
export async function nestedRules(workspace: Workspace, dirs: Iterable<string>, cache: FileTextCache): Promise<RuleFile[]> {
  const candidates = new Set<string>();
  for (const dir of dirs) {
    const folder = workspace.folderOf(dir);
    if (!folder) continue;
    // folderOf guarantees `dir` is inside the folder, so walking up reaches it.
    for (let d = dir; d !== folder.path && dirname(d) !== d; d = dirname(d)) candidates.add(d);
  }
  const ordered = [...candidates].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
  const found = await Promise.all(ordered.map((d) => rulesFilesIn(d, cache)));
  const out: RuleFile[] = [];
  ordered.forEach((dir, i) => {
    for (const path of found[i]) out.push({ path, display: workspace.display(path), scope: 'nested', appliesTo: `${workspace.display(dir)}/` });
  });
  return out;
}

function depth(path: string): number {
  return path.split(sep).length;
}
