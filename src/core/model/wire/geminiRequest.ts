import type { CallOptions, Prompt, PromptMessage, ToolResultOutput, Warning } from './modelSpec';
import { functionTools, base64Of } from './promptParts';
import type { FilePart } from './promptParts';
import type { WireRequest } from './wire';

/*
 * Google's generateContent (the Gemini API's, and Vertex's for Gemini models), request side:
 * the system prompt as `systemInstruction`, the conversation as `user`/`model` contents of parts
 * (text, thoughts, inline files, function calls and their responses), tools as function
 * declarations with their JSON Schema as it is (`parametersJsonSchema`, no conversion to the
 * older OpenAPI subset), and `generationConfig`. What Gemini attached to a part (its thought
 * signature) comes back from the part's provider options under the names the AI SDK's Google
 * providers use, so a conversation carries over from either path.
 */

type Part = Record<string, unknown>;
interface Content {
  role: 'user' | 'model';
  parts: Part[];
}

/** Where one generateContent API keeps its metadata on parts, as the AI SDK's providers name it. */
export interface GeminiFlavor {
  /** providerOptions names read back, first found wins; the stream writes under all of them. */
  names: readonly string[];
  /** The Gemini API takes function call ids; Vertex does not. */
  callIds: boolean;
}

export const geminiApi: GeminiFlavor = { names: ['google'], callIds: true };
export const vertexGemini: GeminiFlavor = { names: ['googleVertex', 'vertex'], callIds: false };

/** Gemini 2.5 and later think; asked to, they send their thoughts (summaries) as `thought` parts. */
export function geminiThinks(modelId: string): boolean {
  return /gemini-(?:2\.5|[3-9])/i.test(modelId);
}

/** Gemini 3 and later check each call's thought signature and take tool results with files inside. */
const gemini3 = (modelId: string) => /gemini-[3-9]/i.test(modelId);

/**
 * Google's documented stand-in for a call's thought signature when there is none to send back
 * (a call another model made): Gemini 3 refuses an unsigned call in the history otherwise.
 */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';

/** Gemini takes images, PDFs, audio and video by URL only from its own file store. */
export const geminiUrls: Record<string, RegExp[]> = { '*': [/^https:\/\/generativelanguage\.googleapis\.com\/v1beta\/files\/.*$/] };


/** A bare or wildcard type ("image") names no format; PNG is what Keel's own attachments are. */
const fullType = (mediaType: string) => (mediaType.includes('/') && !mediaType.endsWith('/*') ? mediaType : 'image/png');

function filePart(part: FilePart): Part {
  const data = part.data;
  if (data.type === 'data') return { inlineData: { mimeType: fullType(part.mediaType), data: base64Of(data.data) } };
  if (data.type === 'url') return { fileData: { mimeType: fullType(part.mediaType), fileUri: data.url.toString() } };
  if (data.type === 'text') {
    const mimeType = part.mediaType.includes('/') ? part.mediaType : 'text/plain';
    return { inlineData: { mimeType, data: Buffer.from(data.text, 'utf8').toString('base64') } };
  }
  throw new Error(`Keel's Gemini wire cannot send a ${data.type} file part; attach the file's content instead.`);
}

function metaOf(holder: { providerOptions?: Record<string, unknown> }, flavor: GeminiFlavor): Record<string, unknown> | undefined {
  const options = holder.providerOptions;
  if (!options) return undefined;
  for (const name of flavor.names) if (options[name]) return options[name] as Record<string, unknown>;
  // Metadata written by the other Google API's provider (a conversation moved between them).
  const other = flavor.names.includes('google') ? (options.googleVertex ?? options.vertex) : options.google;
  return other as Record<string, unknown> | undefined;
}

const signatureOf = (holder: { providerOptions?: Record<string, unknown> }, flavor: GeminiFlavor): string | undefined => {
  const value = metaOf(holder, flavor)?.thoughtSignature;
  return typeof value === 'string' ? value : undefined;
};

const signed = (part: Part, signature: string | undefined): Part => (signature === undefined ? part : { ...part, thoughtSignature: signature });

function callArgs(input: unknown): unknown {
  if (typeof input !== 'string') return input ?? {};
  try {
    return JSON.parse(input) as unknown;
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    // The model's malformed call goes back as the text it was.
    return input;
  }
}

function modelParts(message: Extract<PromptMessage, { role: 'assistant' }>, modelId: string, flavor: GeminiFlavor, warnings: Warning[]): Part[] {
  const parts: Part[] = [];
  let signedCall = false;
  for (const part of message.content) {
    if (part.type === 'text' || part.type === 'reasoning') {
      const signature = signatureOf(part, flavor);
      if (part.text === '' && signature === undefined) continue;
      parts.push(signed(part.type === 'text' ? { text: part.text } : { text: part.text, thought: true }, signature));
    } else if (part.type === 'tool-call') {
      let signature = signatureOf(part, flavor);
      if (signature !== undefined) signedCall = true;
      // Of parallel calls only the first is signed; a call that never had one gets the stand-in.
      else if (gemini3(modelId) && !signedCall) {
        signature = SKIP_SIGNATURE;
        warnings.push({ type: 'other', message: `the call of ${part.toolName} has no thought signature; sent with Google's stand-in` });
      }
      const call = { ...(flavor.callIds ? { id: part.toolCallId } : {}), name: part.toolName, args: callArgs(part.input) };
      parts.push(signed({ functionCall: call }, signature));
    }
  }
  return parts;
}

/** A JSON Schema `$ref` in a structured response would be read as Gemini's own reference. */
const hasRef = (value: unknown): boolean => typeof value === 'object' && value !== null && JSON.stringify(value).includes('"$ref"');

/** A tool's result as function response parts; files go inside it for Gemini 3, beside it before. */
function responseParts(id: string, name: string, output: ToolResultOutput, modelId: string, flavor: GeminiFlavor): Part[] {
  const head = { ...(flavor.callIds ? { id } : {}), name };
  const respond = (response: Record<string, unknown>, extra: Part = {}): Part => ({ functionResponse: { ...head, response: { name, ...response }, ...extra } });
  switch (output.type) {
    case 'text':
      return [respond({ content: output.value })];
    case 'json':
      return [respond({ content: hasRef(output.value) ? JSON.stringify(output.value) : output.value })];
    case 'error-text':
      return [respond({ error: output.value })];
    case 'error-json':
      return [respond({ error: hasRef(output.value) ? JSON.stringify(output.value) : output.value })];
    case 'execution-denied':
      return [respond({ error: output.reason ?? 'Tool call execution denied.' })];
    case 'content': {
      const texts: string[] = [];
      const files: Part[] = [];
      for (const item of output.value) {
        if (item.type === 'text') texts.push(item.text);
        else if (item.type === 'file' && item.data.type === 'data') files.push({ inlineData: { mimeType: fullType(item.mediaType), data: base64Of(item.data.data) } });
        else texts.push(JSON.stringify(item));
      }
      const content = texts.length > 0 ? texts.join('\n') : 'Tool executed successfully.';
      if (files.length === 0) return [respond({ content })];
      if (gemini3(modelId)) return [respond({ content }, { parts: files })];
      // Earlier models take no files in a function response: they follow it as parts of the turn.
      return [respond({ content }), ...files.flatMap((f) => [f, { text: 'The tool returned this file as its result.' }])];
    }
  }
}

/**
 * The prompt as `systemInstruction` and contents. A tool message is a user turn of function
 * responses of its own and each message is one turn, as the AI SDK's provider sends them, so
 * the contents of one request are the start of the next's.
 */
export function geminiPrompt(prompt: Prompt, modelId: string, flavor: GeminiFlavor, warnings: Warning[]): { system: Part[]; contents: Content[] } {
  const system: Part[] = [];
  const contents: Content[] = [];
  for (const message of prompt) {
    if (message.role === 'system') {
      system.push({ text: message.content });
      continue;
    }
    let parts: Part[];
    if (message.role === 'assistant') parts = modelParts(message, modelId, flavor, warnings);
    else if (message.role === 'user') {
      // The API refuses empty text parts.
      parts = message.content.flatMap((part) => (part.type === 'text' ? (part.text === '' ? [] : [{ text: part.text }]) : [filePart(part)]));
    } else {
      parts = message.content.flatMap((part) => (part.type === 'tool-result' ? responseParts(part.toolCallId, part.toolName, part.output, modelId, flavor) : []));
    }
    // Nor does it take a turn without parts.
    if (parts.length > 0) contents.push({ role: message.role === 'assistant' ? 'model' : 'user', parts });
  }
  return { system, contents };
}

function toolConfig(options: CallOptions): Record<string, unknown> | undefined {
  const choice = options.toolChoice;
  if (!choice || choice.type === 'auto') return undefined;
  if (choice.type === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice.type === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.toolName] } };
}

/**
 * How the model should think: `providerOptions.google.thinkingConfig` as the call says
 * (thinkingBudget, thinkingLevel, includeThoughts), and a thinking model asked for its
 * thoughts unless the call says otherwise or turns thinking off.
 */
function thinkingConfig(modelId: string, options: CallOptions, flavor: GeminiFlavor): Record<string, unknown> | undefined {
  const own = metaOf(options, flavor)?.thinkingConfig as Record<string, unknown> | undefined;
  // Thinking turned off (a budget of 0) has no thoughts to send.
  if (!geminiThinks(modelId) || own?.includeThoughts !== undefined || own?.thinkingBudget === 0) return own;
  return { ...own, includeThoughts: true };
}

/** `models/{id}` unless the id names its own resource path (`tunedModels/…`). */
export const geminiModelPath = (modelId: string) => (modelId.includes('/') ? modelId : `models/${modelId}`);

/** The streamGenerateContent request of one call. */
export function geminiRequest(modelId: string, options: CallOptions, flavor: GeminiFlavor = geminiApi): WireRequest {
  const warnings: Warning[] = [];
  const { system, contents } = geminiPrompt(options.prompt, modelId, flavor, warnings);
  const body: Record<string, unknown> = {};
  if (system.length > 0) body.systemInstruction = { parts: system };
  body.contents = contents;
  const tools = functionTools(options, warnings);
  if (tools.length > 0) {
    body.tools = [{ functionDeclarations: tools.map((t) => ({ name: t.name, description: t.description ?? '', parametersJsonSchema: t.inputSchema })) }];
    const config = toolConfig(options);
    if (config) body.toolConfig = config;
  }
  const generation: Record<string, unknown> = {};
  if (options.maxOutputTokens !== undefined) generation.maxOutputTokens = options.maxOutputTokens;
  if (options.temperature !== undefined) generation.temperature = options.temperature;
  if (options.topP !== undefined) generation.topP = options.topP;
  if (options.topK !== undefined) generation.topK = options.topK;
  if (options.stopSequences?.length) generation.stopSequences = options.stopSequences;
  if (options.seed !== undefined) generation.seed = options.seed;
  const thinking = thinkingConfig(modelId, options, flavor);
  if (thinking) generation.thinkingConfig = thinking;
  if (Object.keys(generation).length > 0) body.generationConfig = generation;
  return { path: `/${geminiModelPath(modelId)}:streamGenerateContent?alt=sse`, body, warnings };
}
