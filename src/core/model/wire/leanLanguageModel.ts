import type { CallOptions, FinishPart, GenerateResult, LanguageModelSpec, StreamPart, StreamResult } from './modelSpec';
import { readSse } from './sseReader';
import type { Wire } from './wire';
import { postStream, WireStreamError } from './wireHttp';
import type { WireEndpoint } from './wireHttp';

/** Sends parts to the consumer until the stream ends; rejects with what ended it otherwise. */
export type PartPump = (emit: (part: StreamPart) => void) => Promise<void>;

type DeltaPart = Extract<StreamPart, { type: 'text-delta' | 'reasoning-delta' }>;

/**
 * Merges the text deltas that arrive together: the events of one network read become one
 * delta per block, so a burst costs the consumers (loop, UI, terminal) one call, not one per
 * token. Order is kept: anything else first sends what is held, and so does each read's end.
 */
function mergingDeltas(emit: (part: StreamPart) => void): { put: (part: StreamPart) => void; drain: () => void } {
  let held: DeltaPart | undefined;
  const drain = () => {
    if (held === undefined) return;
    const part = held;
    held = undefined;
    emit(part);
  };
  const put = (part: StreamPart) => {
    // A delta with provider metadata (a thinking signature) goes out as it came.
    if ((part.type === 'text-delta' || part.type === 'reasoning-delta') && part.providerMetadata === undefined) {
      if (held !== undefined && held.type === part.type && held.id === part.id) {
        held.delta += part.delta;
        return;
      }
      drain();
      held = { type: part.type, id: part.id, delta: part.delta };
      return;
    }
    drain();
    emit(part);
  };
  return { put, drain };
}

/**
 * A model on one of the OpenAI wires, parsed by Keel itself: fetch, SSE lines off the raw
 * bytes, one JSON.parse per event. It is an AI SDK language model like any other (`doStream`,
 * `doGenerate`), and the loop takes its `open` path to skip the web-stream plumbing per token.
 */
export class LeanLanguageModel implements LanguageModelSpec {
  readonly specificationVersion = 'v4';
  readonly provider: string;
  readonly modelId: string;
  constructor(
    provider: string,
    modelId: string,
    private readonly wire: Wire,
    private readonly endpoint: WireEndpoint,
    // File URLs that go to the endpoint as they are; anything else the SDK inlines first.
    readonly supportedUrls: Record<string, RegExp[]> = { 'image/*': [/^https?:\/\/.*$/] },
  ) {
    this.provider = provider;
    this.modelId = modelId;
  }

  /**
   * Sends the request; resolves once the response's headers say it was accepted (an HTTP
   * error rejects here, as the SDK's providers do) with the pump that reads its events.
   */
  async open(options: CallOptions): Promise<{ pump: PartPump; body: Record<string, unknown> }> {
    const request = this.wire.request(this.modelId, options);
    const response = await postStream(this.endpoint, request.path, request.body, options.abortSignal);
    const pump: PartPump = async (emit) => {
      emit({ type: 'stream-start', warnings: request.warnings });
      const merged = mergingDeltas(emit);
      const parser = this.wire.parser(merged.put);
      await (this.wire.read ?? readSse)(response, parser.data, merged.drain);
      parser.end();
      merged.drain();
    };
    return { pump, body: request.body };
  }

  async doStream(options: CallOptions): Promise<StreamResult> {
    const { pump, body } = await this.open(options);
    const stream = new ReadableStream<StreamPart>({
      start(controller) {
        pump((part) => controller.enqueue(part)).then(
          () => controller.close(),
          (err: unknown) => {
            // What the server said inside the stream is an error part, as the SDK's providers send it.
            if (err instanceof WireStreamError) {
              controller.enqueue({ type: 'error', error: err });
              controller.close();
            } else controller.error(err);
          },
        );
      },
    });
    return { stream, request: { body } };
  }

  async doGenerate(options: CallOptions): Promise<GenerateResult> {
    const { pump, body } = await this.open(options);
    const content: GenerateResult['content'] = [];
    const warnings: GenerateResult['warnings'] = [];
    let finish: FinishPart | undefined;
    await pump((part) => {
      if (part.type === 'stream-start') warnings.push(...part.warnings);
      else if (part.type === 'text-delta' || part.type === 'reasoning-delta') {
        const kind = part.type === 'text-delta' ? 'text' : 'reasoning';
        const last = content.at(-1);
        if (last?.type === kind) last.text += part.delta;
        else content.push({ type: kind, text: part.delta });
      } else if (part.type === 'tool-call') content.push(part);
      else if (part.type === 'finish') finish = part;
    });
    if (!finish) throw new Error('The response ended before it finished');
    return { content, finishReason: finish.finishReason, usage: finish.usage, warnings, request: { body } };
  }
}
