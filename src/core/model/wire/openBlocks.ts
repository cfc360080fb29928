import type { StreamPart } from './modelSpec';

/** A content block being streamed (Anthropic's and Bedrock's events number them): text, reasoning or a tool call. */
export interface OpenBlock {
  kind: 'text' | 'reasoning' | 'tool';
  id: string;
  name?: string;
  args?: string;
}

/** Ends a block: its end part, and for a tool call the whole call (a call that streamed no arguments takes the empty object). */
function closeBlock(emit: (part: StreamPart) => void, block: OpenBlock): void {
  if (block.kind === 'text') emit({ type: 'text-end', id: block.id });
  else if (block.kind === 'reasoning') emit({ type: 'reasoning-end', id: block.id });
  else {
    emit({ type: 'tool-input-end', id: block.id });
    emit({ type: 'tool-call', toolCallId: block.id, toolName: block.name!, input: block.args === '' ? '{}' : block.args! });
  }
}

/** Ends the block at `index`, if one is open there. */
export function closeAt(blocks: Map<number, OpenBlock>, index: number, emit: (part: StreamPart) => void): void {
  const block = blocks.get(index);
  if (!block) return;
  blocks.delete(index);
  closeBlock(emit, block);
}

/** Ends every block still open (a stream that ended without their stops). */
export function closeAll(blocks: Map<number, OpenBlock>, emit: (part: StreamPart) => void): void {
  for (const index of [...blocks.keys()]) closeAt(blocks, index, emit);
}
