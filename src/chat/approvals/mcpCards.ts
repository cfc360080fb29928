import type { CreateMessageRequestParams } from '../../core/mcp';
import { formFields, lastUserText, mcpToolPrefix, samplingMessages } from '../../core/mcp';
import type { ElicitField, ElicitQuestion, Elicitor, SamplingOutcome, SamplingVerdict } from '../../core/mcp';
import type { LogFn } from '../../protocol/log';
import { MAX_MCP_CARD_TEXT } from '../../protocol/mcpRequests';
import type { McpAnswer, McpFormField, McpRequest, McpRequestPart } from '../../protocol/mcpRequests';
import type { UiMessage } from '../../protocol/uiMessage';
import type { Conversation } from '../conversations/conversation';
import { countSamplingUsage } from './samplingUsage';

type ElicitAnswer = Awaited<ReturnType<Elicitor>>;

export interface McpCardsOptions {
  /** The window's open conversations, the one in view first. */
  conversations(): readonly Conversation[];
  /** A chat view is open and shows its conversation: a card there can be seen. */
  viewOpen(): boolean;
  /** A card waits in this conversation: bring it into sight (or tell the person, when it is in the background). */
  onNeeded(conversation: Conversation): void;
  /** Hears each run end: a card still open in its conversation is answered Cancel (the call it came from is over). */
  onRunEnd?(listener: (conversation: Conversation) => void): () => void;
  log: LogFn;
}

interface OpenCard {
  conversation: Conversation;
  messageId: string;
  part: McpRequestPart;
  resolve(answer: McpAnswer | undefined): void;
}

/**
 * MCP servers' requests as cards in the chat: a question (elicitation: a form, or a page to
 * open) or a sampling request waits in the message of the run that called the server, and the
 * person answers on the card (`mcp.answer`). A request that cannot be placed (no chat view is
 * open, no run of that conversation to put it in) is not taken: the caller asks another way.
 * A request the server withdraws, or that waits too long, shows as expired; an answer that
 * comes after that changes nothing.
 */
export class McpCards {
  private readonly open = new Map<string, OpenCard>();
  private next = 0;

  constructor(
    private readonly opts: McpCardsOptions,
    private readonly idPrefix = `mcp-${Date.now().toString(36)}-`,
  ) {
    opts.onRunEnd?.((conversation) => this.cancelIn(conversation));
  }

  /** The server's question as a card; undefined when no conversation can show it now. */
  elicit(server: string, question: ElicitQuestion, signal: AbortSignal): Promise<ElicitAnswer> | undefined {
    const request: McpRequest =
      question.mode === 'url'
        ? { kind: 'url', message: cut(question.params.message), url: question.params.url.slice(0, 4096) }
        : { kind: 'form', message: cut(question.params.message), fields: formFields(question.params).slice(0, 100).map(fieldView) };
    const asked = this.ask(server, request, signal);
    if (!asked) return undefined;
    return asked.answer.then((answer): ElicitAnswer => {
      if (!answer) return { action: 'cancel' };
      if (answer.action !== 'accept') return { action: answer.action };
      return request.kind === 'form' ? { action: 'accept', content: answer.content ?? {} } : { action: 'accept' };
    });
  }

  /** The server's sampling request as an approval card; undefined when no conversation can show it now. */
  approveSampling(server: string, modelId: string, params: CreateMessageRequestParams, signal: AbortSignal): Promise<SamplingVerdict> | undefined {
    const last = lastUserText(params);
    const request: McpRequest = {
      kind: 'sampling',
      modelId: modelId.slice(0, 500),
      ...(params.systemPrompt ? { systemPrompt: cut(params.systemPrompt) } : {}),
      messages: samplingMessages(params).slice(-200).map((m) => ({ role: m.role, text: cut(m.text) })),
      ...(last !== undefined ? { lastUserText: cut(last) } : {}),
      maxTokens: params.maxTokens,
    };
    const asked = this.ask(server, request, signal);
    if (!asked) return undefined;
    return asked.answer.then((answer): SamplingVerdict => {
      if (answer?.action !== 'accept') return { run: false };
      const edited = last !== undefined && answer.text !== undefined && answer.text !== last ? { lastUserText: answer.text } : {};
      return { run: true, ...edited, ran: (outcome) => this.ran(asked.card, modelId, outcome) };
    });
  }

  /** The person's answer from a card; false when the request is no longer open (answered, withdrawn, expired). */
  answer(requestId: string, answer: McpAnswer): boolean {
    const card = this.open.get(requestId);
    if (!card) return false;
    this.open.delete(requestId);
    card.conversation.cardWaiting(-1);
    const sampling = card.part.request.kind === 'sampling';
    const state = answer.action === 'accept' ? (sampling ? 'running' : 'accepted') : answer.action === 'decline' ? 'declined' : 'cancelled';
    this.show(card, { ...card.part, state });
    card.resolve(answer);
    return true;
  }

  /** The run of `conversation` ended: its cards still open are answered Cancel. */
  cancelIn(conversation: Conversation): void {
    for (const card of [...this.open.values()]) {
      if (card.conversation === conversation) this.answer(card.part.requestId, { action: 'cancel' });
    }
  }

  /** How many cards wait for the person. */
  get size(): number {
    return this.open.size;
  }

  private ask(server: string, request: McpRequest, signal: AbortSignal): { card: OpenCard; answer: Promise<McpAnswer | undefined> } | undefined {
    if (signal.aborted) return undefined;
    const place = this.place(server);
    if (!place) return undefined;
    const requestId = `${this.idPrefix}${++this.next}`;
    let resolve!: (answer: McpAnswer | undefined) => void;
    const answer = new Promise<McpAnswer | undefined>((r) => (resolve = r));
    const card: OpenCard = { ...place, part: { type: 'mcpRequest', requestId, server: server.slice(0, 200), request, state: 'open' }, resolve };
    this.open.set(requestId, card);
    place.conversation.state.showMcpRequest(place.messageId, card.part);
    place.conversation.cardWaiting(1);
    this.opts.log('info', `mcp: server "${server}" asks the person (${request.kind}) in a card, ${requestId}`);
    const expire = (): void => {
      if (!this.open.delete(requestId)) return;
      card.conversation.cardWaiting(-1);
      this.show(card, { ...card.part, state: 'expired' });
      this.opts.log('info', `mcp: the request ${requestId} of "${server}" was withdrawn or timed out before an answer`);
      resolve(undefined);
    };
    signal.addEventListener('abort', expire, { once: true });
    this.opts.onNeeded(place.conversation);
    return { card, answer: answer.finally(() => signal.removeEventListener('abort', expire)) };
  }

  /** An approved sampling request ran (or failed): the card says so, and its tokens count in the conversation. */
  private ran(card: OpenCard, modelId: string, outcome: SamplingOutcome): void {
    if ('error' in outcome) {
      this.show(card, { ...card.part, state: 'failed', error: outcome.error.slice(0, 2000) });
      return;
    }
    this.show(card, { ...card.part, state: 'accepted', usage: outcome.usage });
    countSamplingUsage(card.conversation, card.messageId, modelId, outcome.usage, this.opts.log);
  }

  private show(card: OpenCard, part: McpRequestPart): void {
    card.part = part;
    card.conversation.state.showMcpRequest(card.messageId, part);
  }

  /**
   * Where a request of `server` goes: the message holding a running call of that server (in
   * any open conversation), else the newest answer of the conversation in view while it runs.
   */
  private place(server: string): { conversation: Conversation; messageId: string } | undefined {
    if (!this.opts.viewOpen()) return undefined;
    const conversations = this.opts.conversations();
    const prefix = mcpToolPrefix(server);
    for (const conversation of conversations) {
      const messageId = runningCallOwner(conversation.state.messages(), prefix);
      if (messageId) return { conversation, messageId };
    }
    const shown = conversations[0];
    if (!shown?.queue.isRunning) return undefined;
    const answer = shown.state.messages().findLast((m) => m.role === 'assistant');
    return answer ? { conversation: shown, messageId: answer.id } : undefined;
  }
}

/** The newest message holding a running call whose tool name starts with `prefix`. */
export function runningCallOwner(messages: readonly UiMessage[], prefix: string): string | undefined {
  const found = messages.findLast((m) => m.parts.some((p) => p.type === 'toolCall' && p.state === 'running' && p.name.startsWith(prefix)));
  return found?.id;
}

function fieldView(field: ElicitField): McpFormField {
  const out: McpFormField = { name: field.name, label: field.label.slice(0, 500), kind: field.kind, required: field.required };
  if (field.description) out.description = field.description.slice(0, 2000);
  if (field.options) out.options = field.options.slice(0, 500).map((o) => ({ value: o.value.slice(0, 500), label: o.label.slice(0, 500) }));
  if (field.default !== undefined) out.default = field.default;
  if (field.min !== undefined) out.min = field.min;
  if (field.max !== undefined) out.max = field.max;
  if (field.format) out.format = field.format;
  return out;
}

function cut(text: string): string {
  return text.length > MAX_MCP_CARD_TEXT ? text.slice(0, MAX_MCP_CARD_TEXT) : text;
}
