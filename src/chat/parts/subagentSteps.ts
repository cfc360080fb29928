import type { SubagentStep } from '../../core/projectTypes';
import { MAX_SUBAGENT_STEP_CHARS } from '../../protocol/subagentSteps';
import type { SubagentStepView } from '../../protocol/subagentSteps';

/** Tool names and lines of a subagent's calls, until their results come (by the subagent's call id). */
export type SubagentCallLooks = Map<string, { title: string; summary: string }>;

function cap(text: string): string {
  return text.length > MAX_SUBAGENT_STEP_CHARS ? `${text.slice(0, MAX_SUBAGENT_STEP_CHARS - 1)}…` : text;
}

/**
 * A subagent's step as its card lists it: a call with its title and line (its result marks it
 * done or failed, under the title its call had), or what the subagent wrote. Live runs and
 * reopened logs both go through here. Undefined for a step that is not one (a log written by
 * another version).
 */
export function subagentStepView(step: unknown, looks: SubagentCallLooks): SubagentStepView | undefined {
  if (typeof step !== 'object' || step === null) return undefined;
  const s = step as Partial<Record<keyof SubagentStep | 'toolCallId' | 'name' | 'title' | 'summary' | 'text' | 'isError', unknown>>;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  if (s.kind === 'tool_use' && str(s.toolCallId)) {
    const look = { title: cap(str(s.title) || str(s.name) || 'tool'), summary: cap(str(s.summary)) };
    looks.set(str(s.toolCallId), look);
    return { kind: 'tool', id: str(s.toolCallId), ...look, state: 'running' };
  }
  if (s.kind === 'tool_result' && str(s.toolCallId)) {
    const look = looks.get(str(s.toolCallId)) ?? { title: 'tool', summary: '' };
    return { kind: 'tool', id: str(s.toolCallId), ...look, state: s.isError === true ? 'error' : 'done' };
  }
  if (s.kind === 'text' && str(s.text)) return { kind: 'text', text: cap(str(s.text)) };
  return undefined;
}
