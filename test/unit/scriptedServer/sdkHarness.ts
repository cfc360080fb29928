// Drives the real AI SDK against the scripted server and gathers what it emitted.
import { jsonSchema, streamText, tool } from 'ai';
import type { ModelMessage, TextStreamPart } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';

export const testTools = {
  read: tool({
    description: 'Read a file',
    inputSchema: jsonSchema<{ file_path: string }>({
      type: 'object',
      properties: { file_path: { type: 'string' } },
      required: ['file_path'],
    }),
  }),
  ls: tool({
    description: 'List a folder',
    inputSchema: jsonSchema<{ dir: string }>({
      type: 'object',
      properties: { dir: { type: 'string' } },
      required: ['dir'],
    }),
  }),
};

export type TestPart = TextStreamPart<typeof testTools>;

export interface StreamRun {
  parts: TestPart[];
  /** Errors reported through `onError` (the SDK's channel for stream errors). */
  reported: unknown[];
  /** What iterating the stream threw, if anything. */
  thrown: unknown;
}

export interface StreamInput {
  server: ScriptedServer;
  apiKey?: string;
  prompt?: string;
  messages?: ModelMessage[];
  system?: string;
  abortSignal?: AbortSignal;
  rawChunks?: boolean;
}

export function scriptedModel(server: ScriptedServer, apiKey = 'test-key') {
  return createOpenAI({ baseURL: server.baseURL, apiKey }).chat('scripted-model');
}

export async function runStream(input: StreamInput): Promise<StreamRun> {
  const reported: unknown[] = [];
  const prompt = input.messages !== undefined ? { messages: input.messages } : { prompt: input.prompt ?? 'hello' };
  const result = streamText({
    model: scriptedModel(input.server, input.apiKey),
    ...prompt,
    ...(input.system !== undefined ? { system: input.system } : {}),
    tools: testTools,
    maxRetries: 0,
    abortSignal: input.abortSignal,
    include: { rawChunks: input.rawChunks ?? false },
    onError: ({ error }) => {
      reported.push(error);
    },
  });
  const parts: TestPart[] = [];
  let thrown: unknown;
  try {
    for await (const part of result.stream) parts.push(part);
  } catch (error) {
    thrown = error;
  }
  return { parts, reported, thrown };
}

export function textDeltas(parts: TestPart[]): string[] {
  return parts.flatMap((part) => (part.type === 'text-delta' ? [part.text] : []));
}

export function partsOfType<T extends TestPart['type']>(parts: TestPart[], type: T): Extract<TestPart, { type: T }>[] {
  return parts.filter((part): part is Extract<TestPart, { type: T }> => part.type === type);
}
