import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { parseFrontMatter } from '../llmsContext/frontMatter';
import type { Skill } from './skillFiles';

const maxListed = 200;
const maxDepth = 4;

/**
 * What the model gets when it uses a skill: where it lives, its instructions (SKILL.md without
 * the front matter) and the files it ships, relative to its folder, for the model to read or
 * run with the ordinary tools (commands go through the sandbox and approval like any other).
 */
export async function loadSkill(skill: Skill): Promise<{ text: string; files: string[] }> {
  const { body } = parseFrontMatter(await readFile(join(skill.dir, 'SKILL.md'), 'utf8'));
  const files: string[] = [];
  await listFiles(skill.dir, skill.dir, 0, files);
  const listed = files.filter((f) => f !== 'SKILL.md').sort();
  const shown = listed.slice(0, maxListed);
  const more = listed.length > shown.length ? `\n(and ${listed.length - shown.length} more)` : '';
  const fileList = shown.length ? `\n\nFiles in the skill's folder (${skill.dir}):\n${shown.map((f) => `- ${f}`).join('\n')}${more}` : '';
  const text = `<skill name="${skill.name}" folder="${skill.display}">\n${body.trim()}${fileList}\n</skill>\nPaths in the skill are relative to ${skill.dir}.`;
  return { text, files: shown };
}

async function listFiles(root: string, dir: string, depth: number, out: string[]): Promise<void> {
  if (depth > maxDepth || out.length > maxListed) return;
  const entries = await readdir(dir, { withFileTypes: true });
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) await listFiles(root, path, depth + 1, out);
    else if (e.isFile()) out.push(relative(root, path).split(sep).join('/'));
  }
}
