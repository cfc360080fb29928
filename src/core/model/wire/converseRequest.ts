import type { CallOptions, Prompt, PromptMessage, ToolResultOutput, Warning } from './modelSpec';
import { appendTurn, base64Of, functionTools, limitWithThinking } from './promptParts';
import type { FilePart } from './promptParts';
import type { WireRequest } from './wire';

/*
 * Amazon Bedrock's Converse API, request side: `system` blocks, user/assistant messages of
 * content blocks, `inferenceConfig`, `toolConfig`. Keel's cache marks
 * (`providerOptions.bedrock.cachePoint` on a message) become a cachePoint block after that
 * message's content; reasoning goes back with its signature (`providerOptions.bedrock.
 * signature`) or as redacted content. The option names are the AI SDK Bedrock provider's.
 */

type Block = Record<string, unknown>;
interface Message {
  role: 'user' | 'assistant';
  content: Block[];
}

interface BedrockOptions {
  cachePoint?: unknown;
  signature?: unknown;
  redactedData?: unknown;
  reasoningConfig?: { type?: unknown; budgetTokens?: unknown };
}

const bedrockOf = (holder: { providerOptions?: Record<string, unknown> }): BedrockOptions =>
  (holder.providerOptions?.bedrock ?? {}) as BedrockOptions;

const IMAGE_FORMATS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/jpg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' };
const DOCUMENT_FORMATS: Record<string, string> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

function fileBlock(part: FilePart, documents: { count: number }): Block {
  const data = part.data;
  if (data.type === 'text') return { text: data.text };
  if (data.type !== 'data') throw new Error(`Bedrock's Converse API takes files inline only; attach the file's content instead of a ${data.type} reference.`);
  const bytes = base64Of(data.data);
  // A bare top-level type ("image") names no format; PNG is what Keel's own attachments are.
  const mediaType = part.mediaType === 'image' || part.mediaType === 'image/*' ? 'image/png' : part.mediaType;
  const image = IMAGE_FORMATS[mediaType];
  if (image) return { image: { format: image, source: { bytes } } };
  const document = DOCUMENT_FORMATS[mediaType];
  if (!document) throw new Error(`Bedrock's Converse API cannot take a ${part.mediaType} file; attach its text or an image instead.`);
  // Names must be unique within a request and plain: letters, digits, spaces, hyphens, brackets.
  documents.count++;
  return { document: { format: document, name: `document-${documents.count}`, source: { bytes } } };
}

function toolResultContent(output: ToolResultOutput): { content: Block[]; isError: boolean } {
  switch (output.type) {
    case 'text':
      return { content: [{ text: output.value }], isError: false };
    case 'error-text':
      return { content: [{ text: output.value }], isError: true };
    case 'json':
      return { content: [{ text: JSON.stringify(output.value) }], isError: false };
    case 'error-json':
      return { content: [{ text: JSON.stringify(output.value) }], isError: true };
    case 'execution-denied':
      return { content: [{ text: output.reason ?? 'Tool call execution denied.' }], isError: true };
    case 'content': {
      const content: Block[] = [];
      for (const item of output.value) {
        const format = item.type === 'file' ? IMAGE_FORMATS[item.mediaType] : undefined;
        if (item.type === 'text') content.push({ text: item.text });
        else if (item.type === 'file' && item.data.type === 'data' && format) content.push({ image: { format, source: { bytes: base64Of(item.data.data) } } });
        else content.push({ text: JSON.stringify(item) });
      }
      return { content, isError: false };
    }
  }
}

function assistantBlocks(message: Extract<PromptMessage, { role: 'assistant' }>, warnings: Warning[]): Block[] {
  const blocks: Block[] = [];
  for (const part of message.content) {
    if (part.type === 'text') {
      // Converse refuses blank text blocks.
      if (part.text.trim() !== '') blocks.push({ text: part.text });
    } else if (part.type === 'reasoning') {
      const meta = bedrockOf(part);
      if (typeof meta.signature === 'string') blocks.push({ reasoningContent: { reasoningText: { text: part.text, signature: meta.signature } } });
      else if (typeof meta.redactedData === 'string') blocks.push({ reasoningContent: { redactedContent: meta.redactedData } });
      else warnings.push({ type: 'other', message: 'unsigned reasoning left out of the request' });
    } else if (part.type === 'tool-call') {
      const input = typeof part.input === 'object' && part.input !== null ? part.input : {};
      blocks.push({ toolUse: { toolUseId: part.toolCallId, name: part.toolName, input } });
    }
  }
  return blocks;
}

function userBlocks(message: Extract<PromptMessage, { role: 'user' | 'tool' }>, documents: { count: number }): Block[] {
  if (message.role === 'user') {
    return message.content.flatMap((part) => {
      if (part.type === 'text') return part.text.trim() === '' ? [] : [{ text: part.text }];
      return [fileBlock(part, documents)];
    });
  }
  const blocks: Block[] = [];
  for (const part of message.content) {
    if (part.type !== 'tool-result') continue;
    const { content, isError } = toolResultContent(part.output);
    blocks.push({ toolResult: { toolUseId: part.toolCallId, content, ...(isError ? { status: 'error' } : {}) } });
  }
  return blocks;
}

/** The prompt as `system` blocks and messages, consecutive same-role turns joined as the API wants. */
export function conversePrompt(prompt: Prompt, warnings: Warning[]): { system: Block[]; messages: Message[] } {
  const system: Block[] = [];
  const messages: Message[] = [];
  const documents = { count: 0 };
  for (const message of prompt) {
    const cache = bedrockOf(message).cachePoint;
    if (message.role === 'system') {
      system.push({ text: message.content });
      if (cache) system.push({ cachePoint: cache });
      continue;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = message.role === 'assistant' ? assistantBlocks(message, warnings) : userBlocks(message, documents);
    if (blocks.length === 0) continue;
    if (cache) blocks.push({ cachePoint: cache });
    appendTurn(messages, role, blocks);
  }
  return { system, messages };
}

function toolChoice(options: CallOptions): Block | undefined {
  const choice = options.toolChoice;
  if (!choice || choice.type === 'auto') return undefined;
  if (choice.type === 'required') return { any: {} };
  if (choice.type === 'tool') return { tool: { name: choice.toolName } };
  return undefined;
}

/** Claude's extended thinking on Bedrock: its budget counts inside maxTokens, within the model's limit. */
function thinking(modelId: string, options: CallOptions, modelMaxOutput: number | undefined, warnings: Warning[]): { budget?: number; maxTokens?: number } {
  const config = bedrockOf(options).reasoningConfig;
  if (config?.type !== 'enabled' || typeof config.budgetTokens !== 'number') return { maxTokens: options.maxOutputTokens };
  if (!/anthropic\.claude/i.test(modelId)) {
    warnings.push({ type: 'unsupported', feature: 'a thinking budget for this Bedrock model' });
    return { maxTokens: options.maxOutputTokens };
  }
  return { budget: config.budgetTokens, maxTokens: limitWithThinking(options.maxOutputTokens, modelMaxOutput, 4096, config.budgetTokens) };
}

export function converseRequest(modelId: string, options: CallOptions, modelMaxOutput: number | undefined): WireRequest {
  const warnings: Warning[] = [];
  const { system, messages } = conversePrompt(options.prompt, warnings);
  const body: Record<string, unknown> = {};
  if (system.length > 0) body.system = system;
  body.messages = messages;
  const { budget, maxTokens } = thinking(modelId, options, modelMaxOutput, warnings);
  const inference: Record<string, unknown> = {};
  if (maxTokens !== undefined) inference.maxTokens = maxTokens;
  // Thinking takes no sampling settings.
  if (budget === undefined) {
    if (options.temperature !== undefined) inference.temperature = options.temperature;
    if (options.topP !== undefined) inference.topP = options.topP;
  } else if (options.temperature !== undefined) warnings.push({ type: 'unsupported', feature: 'temperature with thinking' });
  if (options.topK !== undefined) warnings.push({ type: 'unsupported', feature: 'topK' });
  if (options.stopSequences?.length) inference.stopSequences = options.stopSequences;
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference;
  if (budget !== undefined) body.additionalModelRequestFields = { thinking: { type: 'enabled', budget_tokens: budget } };
  const tools = functionTools(options, warnings);
  if (tools.length > 0 && options.toolChoice?.type !== 'none') {
    const config: Record<string, unknown> = {
      tools: tools.map((t) => ({ toolSpec: { name: t.name, ...(t.description ? { description: t.description } : {}), inputSchema: { json: t.inputSchema } } })),
    };
    const choice = toolChoice(options);
    if (choice) config.toolChoice = choice;
    body.toolConfig = config;
  }
  return { path: `/model/${encodeURIComponent(modelId)}/converse-stream`, body, warnings };
}
