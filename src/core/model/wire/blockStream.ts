import type { FinishReason, StreamPart, Usage } from './modelSpec';

/*
 * What Anthropic's Messages stream and Bedrock's ConverseStream share (Bedrock's vocabulary is
 * Claude's): numbered content blocks opened and closed by events, the same stop reasons, and
 * input counted apart from what the cache read and wrote.
 */

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

/** A stop reason of either API as the SDK's finish reason. */
export function stopReasonOf(raw: string | null | undefined): FinishReason {
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return { unified: 'stop', raw };
    case 'tool_use':
      return { unified: 'tool-calls', raw };
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return { unified: 'length', raw };
    case 'refusal':
    case 'content_filtered':
    case 'guardrail_intervened':
      return { unified: 'content-filter', raw };
    default:
      return { unified: 'other', raw: raw ?? undefined };
  }
}

/** Usage whose input total counts what was read from the cache and written to it, as the other wires' totals do. */
export function cachedUsage(noCache: number | undefined, cacheRead = 0, cacheWrite = 0, output?: number): Usage {
  return {
    inputTokens: { total: noCache === undefined ? undefined : noCache + cacheRead + cacheWrite, noCache, cacheRead, cacheWrite },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}
