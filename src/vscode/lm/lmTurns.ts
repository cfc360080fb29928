import * as l10n from '@vscode/l10n';
import type { Prompt, PromptMessage } from '../../core/model';

/**
 * A conversation as VS Code's language model API takes it, before it becomes
 * `vscode.LanguageModelChatMessage`s: only user and assistant messages; tool results travel
 * in user messages; the system prompt becomes the first user message (the API has no
 * system role).
 */
export type LmPart =
  | { kind: 'text'; text: string }
  | { kind: 'toolCall'; callId: string; name: string; input: object }
  | { kind: 'toolResult'; callId: string; text: string };

export interface LmTurn {
  role: 'user' | 'assistant';
  parts: LmPart[];
}

export function toLmTurns(prompt: Prompt): LmTurn[] {
  const turns: LmTurn[] = [];
  const push = (role: LmTurn['role'], parts: LmPart[]): void => {
    if (parts.length === 0) return;
    const last = turns.at(-1);
    // Consecutive messages of one role become one (tool results after a user's words, say).
    if (last && last.role === role) last.parts.push(...parts);
    else turns.push({ role, parts });
  };
  for (const message of prompt) push(roleOf(message), partsOf(message));
  return turns;
}

function roleOf(message: PromptMessage): LmTurn['role'] {
  return message.role === 'assistant' ? 'assistant' : 'user';
}

function partsOf(message: PromptMessage): LmPart[] {
  switch (message.role) {
    case 'system':
      return message.content ? [{ kind: 'text', text: message.content }] : [];
    case 'user':
      return message.content.map((part) => {
        if (part.type === 'text') return { kind: 'text', text: part.text };
        throw new Error(l10n.t('VS Code language models take text only here, not {0} files; remove the attachment or choose another model.', part.mediaType));
      });
    case 'assistant':
      return message.content.flatMap((part): LmPart[] => {
        if (part.type === 'text') return part.text ? [{ kind: 'text', text: part.text }] : [];
        if (part.type === 'tool-call') return [{ kind: 'toolCall', callId: part.toolCallId, name: part.toolName, input: asObject(part.input) }];
        if (part.type === 'tool-result') return [{ kind: 'toolResult', callId: part.toolCallId, text: resultText(part.output) }];
        // Reasoning and other parts stay with Keel: the API has no way to send them back.
        return [];
      });
    case 'tool':
      return message.content.flatMap((part): LmPart[] =>
        part.type === 'tool-result' ? [{ kind: 'toolResult', callId: part.toolCallId, text: resultText(part.output) }] : [],
      );
  }
}

type ToolOutput = Extract<PromptMessage, { role: 'tool' }>['content'][number] extends infer P
  ? P extends { type: 'tool-result'; output: infer O }
    ? O
    : never
  : never;

function resultText(output: ToolOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    case 'execution-denied':
      return `The tool call was denied${output.reason ? `: ${output.reason}` : '.'}`;
    case 'content':
      return output.value.map((part) => (part.type === 'text' ? part.text : part.type === 'file' ? `[${part.mediaType} omitted]` : '')).join('\n');
  }
}

function asObject(input: unknown): object {
  if (typeof input === 'string') {
    try {
      const parsed: unknown = JSON.parse(input);
      if (typeof parsed === 'object' && parsed !== null) return parsed;
    } catch {
      // Not JSON: passed on as the raw text below, so nothing the model wrote is lost.
    }
    return { input };
  }
  return typeof input === 'object' && input !== null ? input : { input };
}
