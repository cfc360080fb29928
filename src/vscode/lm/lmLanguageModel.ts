import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import type { LogFn } from '../../protocol/log';
import { lmErrorMessage } from './lmErrors';
import { LM_PROVIDER } from '../../chat/settings/lmProviderName';
import { toLmTurns } from './lmTurns';
import type { LmTurn } from './lmTurns';
import type { CallOptions, FunctionTool, GenerateResult, LanguageModelSpec, StreamPart, StreamResult } from '../../core/model';

/**
 * One of VS Code's language models (`vscode.lm`, e.g. Copilot's) as an AI SDK language model:
 * Keel's loop streams from it like from any endpoint. Text streams as it arrives; tool calls
 * come back whole (the API delivers them that way). The API reports no usage: tokens are
 * counted with the model's own tokenizer (`countTokens`), so Keel's context meter and
 * compaction work as with other endpoints.
 */
export class LmLanguageModel implements LanguageModelSpec {
  readonly specificationVersion = 'v4';
  readonly provider = LM_PROVIDER;
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]> = {};

  constructor(
    private readonly chat: vscode.LanguageModelChat,
    private readonly log: LogFn,
  ) {
    this.modelId = chat.id;
  }

  async doStream(options: CallOptions): Promise<StreamResult> {
    const cancel = new vscode.CancellationTokenSource();
    const onAbort = () => cancel.cancel();
    options.abortSignal?.addEventListener('abort', onAbort, { once: true });
    const release = () => {
      options.abortSignal?.removeEventListener('abort', onAbort);
      cancel.dispose();
    };
    let response: vscode.LanguageModelChatResponse;
    let inputTokens: Promise<number | undefined> = Promise.resolve(undefined);
    try {
      const messages = toMessages(toLmTurns(options.prompt));
      response = await this.chat.sendRequest(messages, requestOptions(options), cancel.token);
      inputTokens = countAll(this.chat, messages, cancel.token, this.log);
    } catch (err) {
      release();
      throw new Error(lmErrorMessage(err, this.chat), { cause: err });
    }
    const { chat, log } = this;
    const warnings = unsupported(options);
    const stream = new ReadableStream<StreamPart>({
      async start(controller) {
        controller.enqueue({ type: 'stream-start', warnings });
        let textId: string | undefined;
        let parts = 0;
        let calls = 0;
        const produced: string[] = [];
        try {
          for await (const part of response.stream) {
            if (part instanceof vscode.LanguageModelTextPart) {
              if (!part.value) continue;
              if (!textId) {
                textId = `text-${parts++}`;
                controller.enqueue({ type: 'text-start', id: textId });
              }
              controller.enqueue({ type: 'text-delta', id: textId, delta: part.value });
              produced.push(part.value);
            } else if (part instanceof vscode.LanguageModelToolCallPart) {
              if (textId) controller.enqueue({ type: 'text-end', id: textId });
              textId = undefined;
              calls++;
              const input = JSON.stringify(part.input ?? {});
              controller.enqueue({ type: 'tool-call', toolCallId: part.callId, toolName: part.name, input });
              produced.push(part.name, input);
            }
          }
          if (textId) controller.enqueue({ type: 'text-end', id: textId });
          const [input, output] = await Promise.all([inputTokens, countAll(chat, produced.length ? [produced.join('')] : [], cancel.token, log)]);
          controller.enqueue({
            type: 'finish',
            finishReason: { unified: calls > 0 ? 'tool-calls' : 'stop', raw: undefined },
            usage: usageOf(input, output),
          });
          controller.close();
        } catch (err) {
          if (options.abortSignal?.aborted) controller.error(options.abortSignal.reason ?? err);
          else controller.error(new Error(lmErrorMessage(err, chat), { cause: err }));
        } finally {
          release();
        }
      },
      cancel() {
        cancel.cancel();
      },
    });
    return { stream, request: { body: { model: this.chat.id } } };
  }

  async doGenerate(options: CallOptions): Promise<GenerateResult> {
    const { stream } = await this.doStream(options);
    const content: GenerateResult['content'] = [];
    let finish: Extract<StreamPart, { type: 'finish' }> | undefined;
    const warnings: Extract<StreamPart, { type: 'stream-start' }>['warnings'] = [];
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value.type === 'stream-start') warnings.push(...value.warnings);
      else if (value.type === 'text-delta') {
        const last = content.at(-1);
        if (last?.type === 'text') last.text += value.delta;
        else content.push({ type: 'text', text: value.delta });
      } else if (value.type === 'tool-call') content.push(value);
      else if (value.type === 'finish') finish = value;
    }
    return {
      content,
      finishReason: finish?.finishReason ?? { unified: 'other', raw: undefined },
      usage: finish?.usage ?? unknownUsage(),
      warnings,
    };
  }
}

function toMessages(turns: LmTurn[]): vscode.LanguageModelChatMessage[] {
  return turns.map((turn) => {
    if (turn.role === 'assistant') {
      const parts = turn.parts.flatMap((p): (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] => {
        if (p.kind === 'text') return [new vscode.LanguageModelTextPart(p.text)];
        if (p.kind === 'toolCall') return [new vscode.LanguageModelToolCallPart(p.callId, p.name, p.input)];
        return [];
      });
      return vscode.LanguageModelChatMessage.Assistant(parts);
    }
    // Tool results go first in a user message: the API pairs them with the calls just before.
    const results = turn.parts.flatMap((p) =>
      p.kind === 'toolResult' ? [new vscode.LanguageModelToolResultPart(p.callId, [new vscode.LanguageModelTextPart(p.text)])] : [],
    );
    const texts = turn.parts.flatMap((p) => (p.kind === 'text' ? [new vscode.LanguageModelTextPart(p.text)] : []));
    return vscode.LanguageModelChatMessage.User([...results, ...texts]);
  });
}

function requestOptions(options: CallOptions): vscode.LanguageModelChatRequestOptions {
  const request: vscode.LanguageModelChatRequestOptions = {
    justification: vscode.l10n.t('Keel uses this model for its agent chat, as chosen in Keel’s model picker.'),
  };
  const tools = (options.tools ?? []).filter((t): t is FunctionTool => t.type === 'function');
  if (tools.length === 0 || options.toolChoice?.type === 'none') return request;
  const only = options.toolChoice?.type === 'tool' ? options.toolChoice.toolName : undefined;
  request.tools = tools
    .filter((t) => only === undefined || t.name === only)
    .map((t) => ({ name: t.name, description: t.description ?? t.name, inputSchema: t.inputSchema as object }));
  if (options.toolChoice?.type === 'required' || only !== undefined) request.toolMode = vscode.LanguageModelChatToolMode.Required;
  return request;
}

type Warning = Extract<StreamPart, { type: 'stream-start' }>['warnings'][number];

/** Settings the API has no place for: the SDK reports them as warnings, nothing silently differs. */
function unsupported(options: CallOptions): Warning[] {
  const warnings: Warning[] = [];
  for (const feature of ['temperature', 'topP', 'topK', 'seed', 'maxOutputTokens', 'stopSequences', 'presencePenalty', 'frequencyPenalty'] as const) {
    if (options[feature] !== undefined) warnings.push({ type: 'unsupported', feature, details: 'VS Code language models take no sampling settings.' });
  }
  return warnings;
}

function usageOf(input: number | undefined, output: number | undefined): Extract<StreamPart, { type: 'finish' }>['usage'] {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

function unknownUsage(): Extract<StreamPart, { type: 'finish' }>['usage'] {
  return usageOf(undefined, undefined);
}

/**
 * Tokens of these messages by the model's tokenizer; undefined (usage unknown, as the API
 * itself leaves it) when the provider cannot count.
 */
async function countAll(
  chat: vscode.LanguageModelChat,
  items: (string | vscode.LanguageModelChatMessage)[],
  token: vscode.CancellationToken,
  log: LogFn,
): Promise<number | undefined> {
  if (items.length === 0) return 0;
  try {
    const counts = await Promise.all(items.map((item) => chat.countTokens(item, token)));
    return counts.reduce((sum, n) => sum + n, 0);
  } catch (err) {
    log('debug', `${chat.id} could not count tokens; its usage is unknown: ${errorMessage(err)}`);
    return undefined;
  }
}
