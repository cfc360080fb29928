import type { UserInput } from '../projectTypes';
import { loadSkill } from './skillBody';
import type { Skill } from './skillFiles';

/**
 * When the person's message starts with `/<skill-name>`, the skill's instructions and files,
 * to attach to the message (the person chose it, so the model need not call the skill tool).
 * Undefined for any other message, a slash word that names no skill included.
 */
export async function invokedSkill(input: UserInput, skills: () => Promise<readonly Skill[]>): Promise<string | undefined> {
  if (typeof input !== 'string') return undefined;
  const match = /^\/([a-z0-9][a-z0-9-]*)(?=\s|$)/.exec(input.trimStart());
  if (!match) return undefined;
  const skill = (await skills()).find((s) => s.name === match[1]);
  if (!skill) return undefined;
  const { text } = await loadSkill(skill);
  return `The person asked for the skill "${skill.name}" (loaded below); follow it for the rest of their message.\n${text}`;
}
