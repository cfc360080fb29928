import type { CallOptions, Prompt, PromptMessage, ToolResultOutput, Warning } from './modelSpec';
import { appendTurn, base64Of, functionTools, limitWithThinking } from './promptParts';
import type { FilePart } from './promptParts';
import type { WireRequest } from './wire';

/*
 * Anthropic's Messages API, request side: the call's prompt as `system` blocks and alternating
 * user/assistant messages of content blocks. Keel's cache marks (`providerOptions.anthropic.
 * cacheControl` on a message) go on that message's last block; thinking goes back with its
 * signature (`providerOptions.anthropic.signature`), redacted thinking with its data. The
 * options read are the AI SDK provider's own names, so a call is built the same on either path.
 */

/** Keel's cache mark for Anthropic's API (five-minute cache), as `providerOptions.anthropic`. */
export const ephemeral = { cacheControl: { type: 'ephemeral' } };

/** Images and PDFs by URL go to the API as URLs; anything else the SDK inlines first. */
export const anthropicUrls: Record<string, RegExp[]> = { 'image/*': [/^https:\/\/.*$/], 'application/pdf': [/^https:\/\/.*$/] };

type Block = Record<string, unknown>;
interface Message {
  role: 'user' | 'assistant';
  content: Block[];
}

interface AnthropicOptions {
  cacheControl?: unknown;
  signature?: unknown;
  redactedData?: unknown;
  thinking?: { type?: unknown; budgetTokens?: unknown };
}

const anthropicOf = (holder: { providerOptions?: Record<string, unknown> }): AnthropicOptions =>
  (holder.providerOptions?.anthropic ?? {}) as AnthropicOptions;

function fileBlock(part: FilePart): Block {
  const data = part.data;
  if (data.type === 'text') return { type: 'text', text: data.text };
  const image = part.mediaType === 'image' || part.mediaType.startsWith('image/');
  const pdf = part.mediaType === 'application/pdf';
  if (!image && !pdf) throw new Error(`Anthropic's Messages API cannot take a ${part.mediaType} file; attach its text or an image instead.`);
  const type = image ? 'image' : 'document';
  if (data.type === 'url') return { type, source: { type: 'url', url: data.url.toString() } };
  if (data.type !== 'data') throw new Error(`Keel's Anthropic wire cannot send a ${data.type} file part; attach the file's content instead.`);
  // A bare top-level type ("image") names no format; PNG is what Keel's own attachments are.
  const mediaType = image && (!part.mediaType.includes('/') || part.mediaType.endsWith('/*')) ? 'image/png' : part.mediaType;
  return { type, source: { type: 'base64', media_type: mediaType, data: base64Of(data.data) } };
}

/** A tool's output as a tool_result block's content: text, or text and images for rich results. */
function toolResultContent(output: ToolResultOutput): { content: string | Block[]; isError: boolean } {
  switch (output.type) {
    case 'text':
      return { content: output.value, isError: false };
    case 'error-text':
      return { content: output.value, isError: true };
    case 'json':
      return { content: JSON.stringify(output.value), isError: false };
    case 'error-json':
      return { content: JSON.stringify(output.value), isError: true };
    case 'execution-denied':
      return { content: output.reason ?? 'Tool call execution denied.', isError: true };
    case 'content': {
      const blocks: Block[] = [];
      for (const item of output.value) {
        if (item.type === 'text') blocks.push({ type: 'text', text: item.text });
        else if (item.type === 'file' && item.data.type === 'data' && item.mediaType.startsWith('image/')) {
          blocks.push({ type: 'image', source: { type: 'base64', media_type: item.mediaType, data: base64Of(item.data.data) } });
        } else blocks.push({ type: 'text', text: JSON.stringify(item) });
      }
      return { content: blocks, isError: false };
    }
  }
}

function assistantBlocks(message: Extract<PromptMessage, { role: 'assistant' }>, warnings: Warning[]): Block[] {
  const blocks: Block[] = [];
  for (const part of message.content) {
    if (part.type === 'text') {
      // The API refuses empty text blocks.
      if (part.text !== '') blocks.push({ type: 'text', text: part.text });
    } else if (part.type === 'reasoning') {
      const meta = anthropicOf(part);
      if (typeof meta.signature === 'string') blocks.push({ type: 'thinking', thinking: part.text, signature: meta.signature });
      else if (typeof meta.redactedData === 'string') blocks.push({ type: 'redacted_thinking', data: meta.redactedData });
      // Reasoning without a signature (another provider's) cannot be sent back as thinking.
      else warnings.push({ type: 'other', message: 'unsigned reasoning left out of the request' });
    } else if (part.type === 'tool-call') {
      const input = typeof part.input === 'object' && part.input !== null ? part.input : {};
      blocks.push({ type: 'tool_use', id: part.toolCallId, name: part.toolName, input });
    }
  }
  return blocks;
}

function userBlocks(message: Extract<PromptMessage, { role: 'user' | 'tool' }>): Block[] {
  if (message.role === 'user') {
    return message.content.flatMap((part) => {
      if (part.type === 'text') return part.text === '' ? [] : [{ type: 'text', text: part.text }];
      return [fileBlock(part)];
    });
  }
  const blocks: Block[] = [];
  for (const part of message.content) {
    if (part.type !== 'tool-result') continue;
    const { content, isError } = toolResultContent(part.output);
    blocks.push({ type: 'tool_result', tool_use_id: part.toolCallId, content, ...(isError ? { is_error: true } : {}) });
  }
  return blocks;
}

/** The prompt as `system` blocks and messages, consecutive same-role turns joined as the API wants. */
export function anthropicPrompt(prompt: Prompt, warnings: Warning[]): { system: Block[]; messages: Message[] } {
  const system: Block[] = [];
  const messages: Message[] = [];
  for (const message of prompt) {
    const cache = anthropicOf(message).cacheControl;
    if (message.role === 'system') {
      system.push({ type: 'text', text: message.content, ...(cache ? { cache_control: cache } : {}) });
      continue;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = message.role === 'assistant' ? assistantBlocks(message, warnings) : userBlocks(message);
    if (blocks.length === 0) continue;
    if (cache) blocks[blocks.length - 1] = { ...blocks[blocks.length - 1], cache_control: cache };
    appendTurn(messages, role, blocks);
  }
  return { system, messages };
}

function toolChoice(options: CallOptions): Block | undefined {
  const choice = options.toolChoice;
  if (!choice || choice.type === 'auto') return undefined;
  if (choice.type === 'required') return { type: 'any' };
  if (choice.type === 'none') return { type: 'none' };
  return { type: 'tool', name: choice.toolName };
}

/**
 * The request body. `maxOutputTokens` is the model's output limit when known (max_tokens is
 * required): thinking's budget is added to the answer's, within that limit, as the API counts
 * thinking inside max_tokens.
 */
/**
 * Where the request goes and what names the model: Anthropic's own API (`/messages`, the model
 * in the body) or Vertex AI's rawPredict (the model in the path, Vertex's API version in the body).
 */
export type MessagesFlavor = 'anthropic' | 'vertex';

/** The Messages API version Vertex AI's rawPredict takes, in the body. */
const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

export function messagesRequest(modelId: string, options: CallOptions, modelMaxOutput: number | undefined, flavor: MessagesFlavor = 'anthropic'): WireRequest {
  const warnings: Warning[] = [];
  const { system, messages } = anthropicPrompt(options.prompt, warnings);
  const thinking = anthropicOf(options).thinking;
  const budget = thinking?.type === 'enabled' && typeof thinking.budgetTokens === 'number' ? thinking.budgetTokens : undefined;
  const maxTokens = limitWithThinking(options.maxOutputTokens, modelMaxOutput, 8192, budget ?? 0);
  const body: Record<string, unknown> = flavor === 'vertex' ? { anthropic_version: VERTEX_ANTHROPIC_VERSION, max_tokens: maxTokens } : { model: modelId, max_tokens: maxTokens };
  if (system.length > 0) body.system = system;
  body.messages = messages;
  if (budget !== undefined) body.thinking = { type: 'enabled', budget_tokens: budget };
  else if (thinking?.type === 'disabled') body.thinking = { type: 'disabled' };
  // Thinking takes no sampling settings.
  const sampling = budget === undefined;
  if (options.temperature !== undefined) {
    if (sampling) body.temperature = options.temperature;
    else warnings.push({ type: 'unsupported', feature: 'temperature with thinking' });
  }
  if (options.topP !== undefined && sampling) body.top_p = options.topP;
  if (options.topK !== undefined && sampling) body.top_k = options.topK;
  if (options.stopSequences?.length) body.stop_sequences = options.stopSequences;
  const tools = functionTools(options, warnings);
  if (tools.length > 0) {
    body.tools = tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
    const choice = toolChoice(options);
    if (choice) body.tool_choice = choice;
  }
  body.stream = true;
  return { path: flavor === 'vertex' ? `/${encodeURIComponent(modelId)}:streamRawPredict` : '/messages', body, warnings };
}
