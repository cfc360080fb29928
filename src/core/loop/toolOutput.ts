import type { ToolResultPart } from 'ai';
import type { ToolResult } from '../tools/tool';

/** The form the model receives. */
export function toModelOutput(result: ToolResult): ToolResultPart['output'] {
  if (typeof result.output === 'string') {
    return result.isError ? { type: 'error-text', value: result.output } : { type: 'text', value: result.output };
  }
  return {
    type: 'content',
    value: result.output.map((p) =>
      p.type === 'text'
        ? { type: 'text' as const, text: p.text }
        : { type: 'file' as const, data: { type: 'data' as const, data: p.data }, mediaType: p.mediaType },
    ),
  };
}

/** The form shown to people (events, CLI): images become a short note. */
export function toDisplayText(result: ToolResult): string {
  if (typeof result.output === 'string') return result.output;
  return result.output.map((p) => (p.type === 'text' ? p.text : `[image ${p.mediaType}]`)).join('\n');
}
