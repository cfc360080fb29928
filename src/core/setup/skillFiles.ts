import { join, relative } from 'node:path';
import type { FileTextCache } from '../llmsContext/fileTextCache';
import { frontString, parseFrontMatter } from '../llmsContext/frontMatter';
import { oneLine } from '../tools/toolPresentation';
import type { Workspace } from '../workspace/workspace';
import { firstByName, slashed } from './discovery';

/** One Agent Skill: a folder with a SKILL.md (front matter `name`, `description`, then its instructions). */
export interface Skill {
  name: string;
  description: string;
  /** The folder holding SKILL.md and whatever files it ships. */
  dir: string;
  /** Where it was found, as the person and the model see it (`.claude/skills/x`, `~/.claude/skills/x`). */
  display: string;
}

/** Where skills are looked for; the person's folders are optional (tests, the CLI without a home). */
export interface SkillHomes {
  /** KEEL_HOME: its `skills/` folder. */
  keel?: string;
  /** The person's home: `~/.claude/skills`. */
  user?: string;
}

const workspaceFolders: readonly string[][] = [
  ['.keel', 'skills'],
  ['.claude', 'skills'],
  ['.github', 'skills'],
];

/** Skill names as the format allows them: lower case, digits and hyphens. */
const validName = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * Every skill, workspace folders first (`.keel`, `.claude`, `.github`), then `~/.keel/skills`
 * and `~/.claude/skills`; a name found twice keeps its first place. A SKILL.md without a
 * description, or with a name the format does not allow, is left out (the model could not
 * tell when to use it).
 */
export async function discoverSkills(workspace: Workspace, homes: SkillHomes, cache: FileTextCache): Promise<Skill[]> {
  const places: { dir: string; shown: (dir: string) => string }[] = [];
  for (const f of workspace.folders) {
    for (const parts of workspaceFolders) places.push({ dir: join(f.path, ...parts), shown: (d) => workspace.display(d) });
  }
  if (homes.keel) places.push({ dir: join(homes.keel, 'skills'), shown: (d) => `~keel/${slashed(relative(homes.keel!, d))}` });
  if (homes.user) places.push({ dir: join(homes.user, '.claude', 'skills'), shown: (d) => `~/${slashed(relative(homes.user!, d))}` });
  const found = await Promise.all(places.map((p) => skillsIn(p.dir, p.shown, cache)));
  return firstByName(found.flat());
}

async function skillsIn(dir: string, shown: (dir: string) => string, cache: FileTextCache): Promise<Skill[]> {
  const names = (await cache.names(dir)).sort();
  const texts = await Promise.all(names.map((n) => cache.text(join(dir, n, 'SKILL.md'))));
  const out: Skill[] = [];
  names.forEach((folder, i) => {
    const text = texts[i];
    if (text === undefined) return;
    const { data } = parseFrontMatter(text);
    const name = frontString(data, 'name') || folder;
    const description = frontString(data, 'description').trim();
    if (!validName.test(name) || description === '') return;
    out.push({ name, description, dir: join(dir, folder), display: shown(join(dir, folder)) });
  });
  return out;
}

/** The skills as the model is told about them: names and descriptions only (each cut to 300 characters). */
export function renderSkillList(skills: readonly Skill[]): string {
  if (skills.length === 0) return '';
  const lines = skills.map((s) => `- ${s.name}: ${oneLine(s.description, 300)}`);
  return [
    'Skills: instructions and files for particular tasks. When a task fits a skill\'s description, call the skill tool with its name before you start, and follow what it says.',
    ...lines,
  ].join('\n');
}

