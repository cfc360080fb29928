import { join, relative, sep } from 'node:path';
import { compileGlob, GlobError } from '../workspace/globPattern';
import type { Workspace } from '../workspace/workspace';
import type { FileTextCache } from './fileTextCache';
import { frontBool, frontList, frontString, parseFrontMatter } from './frontMatter';
import type { RuleFile, RuleTrigger } from './rulesFiles';

/** A rules file in another agent's format, found at a workspace folder's root. */
export interface ScopedRule {
  path: string;
  display: string;
  /** The workspace folder it belongs to; its globs are relative to it. */
  folder: string;
  trigger: RuleTrigger;
  /** For `files`: globs over paths relative to `folder`. */
  globs: string[];
  description: string;
  /** The text without its front matter. */
  body: string;
}

/** How one file's front matter says when it applies; undefined: only when the person names it (left out). */
type Classify = (data: ReturnType<typeof parseFrontMatter>['data']) => { trigger: RuleTrigger; globs: string[]; description: string } | undefined;

const always: Classify = () => ({ trigger: 'always', globs: [], description: '' });

/** `paths:` (Claude Code's `.claude/rules`, Cline's `.clinerules/`): only for matching files; none: always. */
const byPaths: Classify = (data) => {
  const globs = frontList(data, 'paths');
  return globs.length ? { trigger: 'files', globs, description: '' } : always(data);
};

/** Copilot's `.github/instructions/*.instructions.md`: `applyTo` globs; `**` means every file. */
const byApplyTo: Classify = (data) => {
  const globs = frontList(data, 'applyTo');
  const description = frontString(data, 'description');
  if (globs.some((g) => g === '**' || g === '**/*' || g === '*')) return { trigger: 'always', globs: [], description };
  if (globs.length) return { trigger: 'files', globs, description };
  return description ? { trigger: 'described', globs: [], description } : undefined;
};

/** Cursor's `.mdc`: `alwaysApply`, else `globs`, else `description` (the agent decides), else manual. */
const cursorRule: Classify = (data) => {
  const description = frontString(data, 'description');
  if (frontBool(data, 'alwaysApply')) return { trigger: 'always', globs: [], description };
  const globs = frontList(data, 'globs');
  if (globs.length) return { trigger: 'files', globs, description };
  return description ? { trigger: 'described', globs: [], description } : undefined;
};

/** Windsurf's `.windsurf/rules/*.md`: `trigger: always_on | glob | model_decision | manual`. */
const windsurfRule: Classify = (data) => {
  const trigger = frontString(data, 'trigger');
  const description = frontString(data, 'description');
  const globs = frontList(data, 'globs');
  if (trigger === 'glob' && globs.length) return { trigger: 'files', globs, description };
  if (trigger === 'model_decision' && description) return { trigger: 'described', globs: [], description };
  if (trigger === 'always_on' || trigger === '') return { trigger: 'always', globs: [], description };
  return undefined;
};

/** Files each holding one rule, at a path below the folder root. */
const singleFiles: readonly { at: string[]; classify: Classify }[] = [
  { at: ['.github', 'copilot-instructions.md'], classify: always },
  { at: ['.windsurfrules'], classify: always },
  { at: ['.cursorrules'], classify: always },
  { at: ['.clinerules'], classify: always },
];

/** Folders of rules files: which names count, and how each file says when it applies. */
const ruleFolders: readonly { at: string[]; names: RegExp; classify: Classify }[] = [
  { at: ['.claude', 'rules'], names: /\.md$/i, classify: byPaths },
  { at: ['.github', 'instructions'], names: /\.instructions\.md$/i, classify: byApplyTo },
  { at: ['.cursor', 'rules'], names: /\.mdc?$/i, classify: cursorRule },
  { at: ['.clinerules'], names: /\.(md|txt)$/i, classify: byPaths },
  { at: ['.windsurf', 'rules'], names: /\.md$/i, classify: windsurfRule },
];

/** Top-level names that may hold any of the above, so a folder without them costs one listing. */
const roots = new Set([...singleFiles, ...ruleFolders].map((r) => r.at[0]));

/** The other agents' rules files in each workspace folder, in a fixed order (format, then name). */
export async function scopedRules(workspace: Workspace, cache: FileTextCache): Promise<ScopedRule[]> {
  const perFolder = await Promise.all(workspace.folders.map((f) => scopedRulesIn(f.path, workspace, cache)));
  return perFolder.flat();
}

async function scopedRulesIn(folder: string, workspace: Workspace, cache: FileTextCache): Promise<ScopedRule[]> {
  const top = await cache.names(folder);
  if (!top.some((n) => roots.has(n))) return [];
  const candidates: { path: string; classify: Classify }[] = [];
  for (const single of singleFiles) {
    if (top.includes(single.at[0])) candidates.push({ path: join(folder, ...single.at), classify: single.classify });
  }
  for (const group of ruleFolders) {
    if (!top.includes(group.at[0])) continue;
    const dir = join(folder, ...group.at);
    const names = (await cache.names(dir)).filter((n) => group.names.test(n)).sort();
    for (const n of names) candidates.push({ path: join(dir, n), classify: group.classify });
  }
  const texts = await Promise.all(candidates.map((c) => cache.text(c.path)));
  const out: ScopedRule[] = [];
  candidates.forEach((c, i) => {
    const text = texts[i];
    if (text === undefined || text.trim() === '') return;
    const { data, body } = parseFrontMatter(text);
    const how = c.classify(data);
    if (!how || body.trim() === '') return;
    out.push({ path: c.path, display: workspace.display(c.path), folder, ...how, body });
  });
  return out;
}

/** A scoped rule that applies now, as a rules file with why, and the text the model gets. */
export interface AppliedScopedRule {
  rule: RuleFile;
  text: string;
}

const compiled = new Map<string, RegExp | null>();

/**
 * Which scoped rules apply for the files the conversation touched or mentioned (absolute
 * paths): `always` ones, `files` ones whose glob matches one of them (a glob without `/`
 * matches the name in any folder, as the tools do), and `described` ones to be listed.
 */
export function applyScopedRules(rules: readonly ScopedRule[], files: Iterable<string>, workspace: Workspace): AppliedScopedRule[] {
  const paths = [...files];
  const out: AppliedScopedRule[] = [];
  for (const r of rules) {
    const base: RuleFile = { path: r.path, display: r.display, scope: 'workspace', trigger: r.trigger };
    if (r.trigger === 'always') out.push({ rule: base, text: r.body });
    else if (r.trigger === 'described') out.push({ rule: { ...base, description: r.description }, text: r.body });
    else {
      const matched = firstMatch(r, paths);
      if (matched) out.push({ rule: { ...base, matched: { glob: matched.glob, file: workspace.display(matched.file) } }, text: r.body });
    }
  }
  return out;
}

function firstMatch(rule: ScopedRule, files: readonly string[]): { glob: string; file: string } | undefined {
  for (const file of files) {
    const rel = relative(rule.folder, file);
    if (rel === '' || rel.startsWith('..') || rel.startsWith(sep) || /^[a-zA-Z]:/.test(rel)) continue;
    const slashed = rel.split(sep).join('/');
    for (const glob of rule.globs) {
      if (globRegex(glob)?.test(slashed)) return { glob, file };
    }
  }
  return undefined;
}

function globRegex(glob: string): RegExp | null {
  let hit = compiled.get(glob);
  if (hit !== undefined) return hit;
  const clean = glob.trim().replace(/^\.\//, '').replace(/^\//, '');
  const anchored = clean.includes('/') ? clean : `**/${clean}`;
  try {
    hit = compileGlob(anchored, { braces: true });
  } catch (err) {
    // A glob the tool would not accept either (unclosed `{`): that rule matches no file.
    if (!(err instanceof GlobError)) throw err;
    hit = null;
  }
  compiled.set(glob, hit);
  return hit;
}
