import { join, relative } from 'node:path';
import type { FileTextCache } from '../llmsContext/fileTextCache';
import { frontList, frontString, parseFrontMatter } from '../llmsContext/frontMatter';
import { oneLine } from '../tools/toolPresentation';
import type { Workspace } from '../workspace/workspace';
import { keelToolNames } from './commandFiles';
import { firstByName, slashed } from './discovery';

/** A custom agent: Claude Code's subagents, Copilot's custom agents, Keel's own. */
export interface AgentFile {
  /** `reviewer`: front matter `name`, else the file name without its suffix. */
  name: string;
  description: string;
  /** The agent's prompt: the file without its front matter. */
  prompt: string;
  /** Tool names the file gives it (`tools`), as written; empty: the file names none. */
  tools: string[];
  /** The model the file asks for; absent when it names none or says `inherit`. */
  model?: string;
  path: string;
  display: string;
}

interface Place {
  dir: string;
  suffix: RegExp;
  shown: (path: string) => string;
}

/** Agent names as the formats allow them: lower case, digits, hyphens and underscores. */
const validName = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * Every agent definition, workspace folders first (`.keel/agents/*.md`, `.claude/agents/*.md`,
 * `.github/agents/*.agent.md`), then `~/.keel/agents` (KEEL_HOME) and `~/.claude/agents`; a
 * name found twice keeps its first place. A file without a description or a prompt, or with a
 * name the formats do not allow, is left out (the model could not tell when to use it).
 */
export async function discoverAgents(workspace: Workspace, homes: { keel?: string; user?: string }, cache: FileTextCache): Promise<AgentFile[]> {
  const places: Place[] = [];
  for (const f of workspace.folders) {
    const shown = (p: string) => workspace.display(p);
    places.push({ dir: join(f.path, '.keel', 'agents'), suffix: /\.md$/i, shown });
    places.push({ dir: join(f.path, '.claude', 'agents'), suffix: /\.md$/i, shown });
    places.push({ dir: join(f.path, '.github', 'agents'), suffix: /\.agent\.md$/i, shown });
  }
  if (homes.keel) places.push({ dir: join(homes.keel, 'agents'), suffix: /\.md$/i, shown: (p) => `~keel/${slashed(relative(homes.keel!, p))}` });
  if (homes.user) places.push({ dir: join(homes.user, '.claude', 'agents'), suffix: /\.md$/i, shown: (p) => `~/${slashed(relative(homes.user!, p))}` });
  const found = await Promise.all(places.map((p) => agentsIn(p, cache)));
  return firstByName(found.flat());
}

async function agentsIn(place: Place, cache: FileTextCache): Promise<AgentFile[]> {
  const names = (await cache.names(place.dir)).filter((n) => place.suffix.test(n)).sort();
  const texts = await Promise.all(names.map((n) => cache.text(join(place.dir, n))));
  const out: AgentFile[] = [];
  names.forEach((file, i) => {
    const text = texts[i];
    if (text === undefined) return;
    const { data, body } = parseFrontMatter(text);
    const name = (frontString(data, 'name') || file.replace(place.suffix, '')).trim().toLowerCase();
    const description = frontString(data, 'description').trim();
    const prompt = body.trim();
    if (!validName.test(name) || description === '' || prompt === '') return;
    const model = frontString(data, 'model').trim();
    const path = join(place.dir, file);
    out.push({
      name,
      description,
      prompt,
      tools: frontList(data, 'tools'),
      ...(model !== '' && model.toLowerCase() !== 'inherit' ? { model } : {}),
      path,
      display: place.shown(path),
    });
  });
  return out;
}

/** The agents as the model is told about them: names and descriptions only (each cut to 300 characters). */
export function renderAgentList(agents: readonly AgentFile[]): string {
  return agents.map((a) => `- ${a.name}: ${oneLine(a.description, 300)}`).join('\n');
}

/**
 * The tools a subagent may use. Without a definition, or with one whose `tools:` names no tool
 * Keel knows: the read tools only. With `tools:`: the offered ones it names (read or not), so a
 * definition can only narrow what the parent run offers, and the calls still go through the
 * person's approvals. Never the `task` tool itself (no subagents of subagents).
 */
export function subagentTools<T extends { name: string; category: string }>(offered: readonly T[], agent: AgentFile | undefined): T[] {
  const others = offered.filter((t) => t.name !== 'task');
  const wanted = keelToolNames(agent?.tools ?? []);
  if (wanted.size === 0) return others.filter((t) => t.category === 'read');
  return others.filter((t) => wanted.has(t.name));
}
