import { join, relative } from 'node:path';
import type { FileTextCache } from '../llmsContext/fileTextCache';
import { frontList, frontString, parseFrontMatter } from '../llmsContext/frontMatter';
import type { Workspace } from '../workspace/workspace';
import { firstByName, slashed } from './discovery';

/** A prompt kept in a file, run as `/name args`: Claude Code's commands, Copilot's prompt files, Keel's own. */
export interface CommandFile {
  /** `fix-issue`; a file in a subfolder of `.claude/commands` is `folder:name`, as Claude Code names it. */
  name: string;
  description: string;
  /** The prompt, without its front matter. */
  body: string;
  /** Tool names the file allows (`allowed-tools`, or `tools` in a prompt file); empty: no limit. */
  tools: string[];
  path: string;
  display: string;
}

interface Place {
  dir: string;
  suffix: RegExp;
  /** Folders below `dir` count, their names joined with `:` (Claude Code). */
  nested: boolean;
  shown: (path: string) => string;
}

/** Workspace folders first (`.keel`, `.claude`, `.github/prompts`), then `~/.keel/commands` and `~/.claude/commands`. */
export async function discoverCommandFiles(workspace: Workspace, homes: { keel?: string; user?: string }, cache: FileTextCache): Promise<CommandFile[]> {
  const places: Place[] = [];
  for (const f of workspace.folders) {
    const shown = (p: string) => workspace.display(p);
    places.push({ dir: join(f.path, '.keel', 'commands'), suffix: /\.md$/i, nested: false, shown });
    places.push({ dir: join(f.path, '.claude', 'commands'), suffix: /\.md$/i, nested: true, shown });
    places.push({ dir: join(f.path, '.github', 'prompts'), suffix: /\.prompt\.md$/i, nested: false, shown });
  }
  if (homes.keel) places.push({ dir: join(homes.keel, 'commands'), suffix: /\.md$/i, nested: false, shown: (p) => `~keel/${slashed(relative(homes.keel!, p))}` });
  if (homes.user) places.push({ dir: join(homes.user, '.claude', 'commands'), suffix: /\.md$/i, nested: true, shown: (p) => `~/${slashed(relative(homes.user!, p))}` });
  const found = await Promise.all(places.map((p) => commandsIn(p, p.dir, [], cache)));
  return firstByName(found.flat());
}

async function commandsIn(place: Place, dir: string, prefix: string[], cache: FileTextCache): Promise<CommandFile[]> {
  const names = (await cache.names(dir)).sort();
  const out: CommandFile[] = [];
  for (const n of names) {
    const path = join(dir, n);
    if (place.suffix.test(n)) {
      const text = await cache.text(path);
      if (text === undefined) continue;
      const { data, body } = parseFrontMatter(text);
      const name = [...prefix, n.replace(place.suffix, '')].join(':').toLowerCase();
      if (!/^[a-z0-9][\w:.-]*$/.test(name) || body.trim() === '') continue;
      const tools = frontList(data, 'allowed-tools').concat(frontList(data, 'tools'));
      out.push({ name, description: frontString(data, 'description'), body, tools, path, display: place.shown(path) });
    } else if (place.nested && prefix.length < 3 && !n.startsWith('.')) {
      out.push(...(await commandsIn(place, path, [...prefix, n], cache)));
    }
  }
  return out;
}

/**
 * The prompt with the person's arguments: `$ARGUMENTS` is all of them, `$1`…`$9` each
 * (split on spaces, quotes keep words together), `${input:name}` / `${input:name:hint}`
 * (Copilot's) all of them too, or `<name>` when none were given. A prompt that uses none of
 * these gets the arguments appended, so nothing the person typed is lost.
 */
export function expandCommand(body: string, args: string): string {
  const words = splitArgs(args);
  let used = false;
  let text = body.replace(/\$ARGUMENTS/g, () => {
    used = true;
    return args;
  });
  text = text.replace(/\$([1-9])/g, (_, d: string) => {
    used = true;
    return words[Number(d) - 1] ?? '';
  });
  text = text.replace(/\$\{input:([\w-]+)(?::[^}]*)?\}/g, (_, name: string) => {
    used = true;
    return args !== '' ? args : `<${name}>`;
  });
  text = text.trim();
  return !used && args !== '' ? `${text}\n\n${args}` : text;
}

function splitArgs(args: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(args); m; m = re.exec(args)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/** Claude Code's and Copilot's tool names as Keel's (`Bash(git:*)` is `bash`); unknown names map to none. */
const readTools = ['read', 'grep', 'glob', 'ls'];
const keelToolsOf: Record<string, readonly string[]> = {
  read: ['read'],
  grep: ['grep'],
  glob: ['glob'],
  ls: ['ls'],
  bash: ['bash'],
  edit: ['edit'],
  multiedit: ['edit'],
  write: ['write'],
  webfetch: ['fetch'],
  fetch: ['fetch'],
  todowrite: ['todo_write'],
  search: readTools,
  codebase: readTools,
};

/**
 * The tools a run of this command may use: the offered ones the file names, mapped to Keel's
 * names. Only ever a subset of `offered`; never approves anything. A file that names no
 * tool Keel knows (or none at all) leaves `offered` as it is.
 */
export function narrowTools(offered: readonly string[], named: readonly string[]): string[] {
  const wanted = keelToolNames(named);
  if (wanted.size === 0) return [...offered];
  return offered.filter((n) => wanted.has(n));
}

/** Keel's names for the tools a file names (Claude Code's and Copilot's spellings); unknown names add none. */
export function keelToolNames(named: readonly string[]): Set<string> {
  return new Set(named.flatMap((n) => keelToolsOf[n.replace(/\(.*$/, '').trim().toLowerCase()] ?? []));
}
