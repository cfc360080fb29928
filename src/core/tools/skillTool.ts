import * as z from 'zod';
import { loadSkill } from '../setup/skillBody';
import type { Skill } from '../setup/skillFiles';
import { defineTool, errorResult, textResult } from './tool';
import type { AnyTool } from './tool';
import { oneLine } from './toolPresentation';

function skillName(input: unknown): string {
  const name = typeof input === 'object' && input !== null ? (input as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name.trim() !== '' ? oneLine(name) : 'skill';
}

const inputSchema = z.object({
  name: z.string().min(1).describe('The skill\'s name, as listed under Skills in the workspace context.'),
});

export type SkillInput = z.infer<typeof inputSchema>;

/**
 * The `skill` tool: loads one skill's instructions and lists its files. It only reads; what the
 * skill then asks for (running its scripts, editing) goes through the ordinary tools and their
 * approvals. `skills`: the skills found now (the list can change while the conversation runs).
 */
export function createSkillTool(skills: () => Promise<readonly Skill[]>): AnyTool {
  return defineTool<SkillInput>({
    name: 'skill',
    description:
      'Loads a skill: its instructions and the list of files it ships. Call it when a task fits a skill listed under Skills, before you start; then follow its instructions with the other tools.',
    category: 'read',
    present: (input) => ({
      title: 'skill',
      summary: skillName(input),
      icon: 'book',
      details: { kind: 'keyValue', entries: [{ key: 'skill', value: skillName(input) }] },
    }),
    inputSchema,
    async execute(input) {
      const all = await skills();
      const skill = all.find((s) => s.name === input.name);
      if (!skill) {
        const names = all.map((s) => s.name).join(', ') || '(none)';
        return errorResult(`No skill is named "${input.name}". Skills: ${names}.`);
      }
      return textResult((await loadSkill(skill)).text);
    },
  });
}
