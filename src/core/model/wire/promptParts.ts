import type { CallOptions, FunctionTool, PromptMessage, ToolResultOutput, Warning } from './modelSpec';

type UserPart = Extract<PromptMessage, { role: 'user' }>['content'][number];
export type FilePart = Extract<UserPart, { type: 'file' }>;

/** Bytes (or a base64 string already) as base64. */
export const base64Of = (bytes: string | Uint8Array): string => (typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('base64'));

/** A file part as a URL the OpenAI wires take: the URL it has, or its bytes as a data URL. */
export function fileUrl(part: FilePart): string {
  const data = part.data;
  if (data.type === 'url') return data.url.toString();
  if (data.type === 'data') {
    const bytes = data.data;
    const base64 = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('base64');
    // A bare top-level type ("image") names no format; PNG is what Keel's own attachments are.
    const mediaType = part.mediaType.includes('/') && !part.mediaType.endsWith('/*') ? part.mediaType : 'image/png';
    return `data:${mediaType};base64,${base64}`;
  }
  throw new Error(`Keel's OpenAI wire cannot send a ${data.type} file part; attach the file's content instead.`);
}

export const isImage = (part: FilePart) => part.mediaType === 'image' || part.mediaType.startsWith('image/');

/** A tool's output as the text the OpenAI wires carry (they take no structured tool results). */
export function toolOutputText(output: ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return JSON.stringify(output.value);
    case 'execution-denied':
      return output.reason ?? 'Tool call execution denied.';
    case 'content':
      return JSON.stringify(output.value);
  }
}

/** Tool-call input as the JSON string the wires send back. */
export function callArguments(input: unknown): string {
  if (typeof input === 'string') {
    try {
      JSON.parse(input);
      return input;
    } catch (err) {
      if (!(err instanceof SyntaxError)) throw err;
      // Not JSON (the model's malformed call): sent as a JSON string so the request stays valid.
      return JSON.stringify(input);
    }
  }
  return JSON.stringify(input ?? {});
}

/** The function tools of a call; provider-defined tools neither wire speaks are left out with a warning. */
export function functionTools(options: CallOptions, warnings: Warning[]): FunctionTool[] {
  return (options.tools ?? []).filter((t): t is FunctionTool => {
    if (t.type === 'function') return true;
    warnings.push({ type: 'unsupported', feature: `provider tool ${t.name}` });
    return false;
  });
}

/** Adds a turn's blocks, joined to the previous turn when it has the same role (Anthropic's and Bedrock's APIs want turns to alternate). */
export function appendTurn<B>(turns: { role: 'user' | 'assistant'; content: B[] }[], role: 'user' | 'assistant', content: B[]): void {
  const last = turns.at(-1);
  if (last?.role === role) last.content.push(...content);
  else turns.push({ role, content });
}

/**
 * The output limit of a call whose thinking budget counts inside it (Anthropic, Claude on
 * Bedrock): the answer's limit (the call's, else the model's, else `fallback`) plus the budget,
 * within the model's limit when it is known.
 */
export function limitWithThinking(requested: number | undefined, modelMax: number | undefined, fallback: number, budget: number): number {
  const total = (requested ?? modelMax ?? fallback) + budget;
  return modelMax !== undefined && total > modelMax ? modelMax : total;
}
