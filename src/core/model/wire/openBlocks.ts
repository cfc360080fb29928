import type { StreamPart } from './modelSpec';

/** A content block being streamed (Anthropic's and Bedrock's events number them): text, reasoning or a tool call. */
export interface OpenBlock {
  kind: 'text' | 'reasoning' | 'tool';
  id: string;
  name?: string;
  args?: string;
}

/** Ends a block: its end part, and for a tool call the whole call (a call that streamed no arguments takes the empty object). */
export function closeBlock(emit: (part: StreamPart) => void, block: OpenBlock): void {
  if (block.kind === 'text') emit({ type: 'text-end', id: block.id });
  else if (block.kind === 'reasoning') emit({ type: 'reasoning-end', id: block.id });
  else {
    emit({ type: 'tool-input-end', id: block.id });
    emit({ type: 'tool-call', toolCallId: block.id, toolName: block.name!, input: block.args === '' ? '{}' : block.args! });
  }
}
