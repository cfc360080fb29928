// Reading what Keel sent to the scripted model: the proof of what "the model was told".
import * as assert from 'node:assert';
import { isContextBlock } from '../../../../src/core/llmsContext/contextBlock';
import type { ChatRequestMessage, RecordedRequest } from '../../../fixtures/scriptedServer/scenarioTypes.ts';
import type { ScriptedServer } from '../../../fixtures/scriptedServer/scriptedServer.ts';

export function contentText(message: ChatRequestMessage): string {
  return textParts(message).join('');
}

function textParts(message: ChatRequestMessage): string[] {
  const { content } = message;
  if (typeof content === 'string') return [content];
  if (Array.isArray(content)) {
    return content.map((part: unknown) => (typeof part === 'object' && part !== null && 'text' in part && typeof part.text === 'string' ? part.text : ''));
  }
  return [];
}

/** The workspace context the request showed: the blocks its user messages carry (what changed, message by message). */
export function workspaceContext(req: RecordedRequest): string {
  return req.body.messages
    .filter((m) => m.role === 'user')
    .flatMap((m) => textParts(m).filter(isContextBlock))
    .join('\n');
}

export function request(server: ScriptedServer, index: number): RecordedRequest {
  const found = server.requests[index];
  assert.ok(found, `the model got request #${index + 1} (it got ${server.requests.length})`);
  return found;
}

export function systemText(req: RecordedRequest): string {
  return req.body.messages.filter((m) => m.role === 'system').map(contentText).join('\n');
}

/** The newest tool result in a request: what the model is told about its last tool call. */
export function lastToolResult(req: RecordedRequest): string {
  const tool = req.body.messages.filter((m) => m.role === 'tool').at(-1);
  assert.ok(tool, `request #${req.index} carries a tool result`);
  return contentText(tool);
}

/** What the person's messages said, without the workspace context Keel attached to them. */
export function userTexts(req: RecordedRequest): string[] {
  return req.body.messages.filter((m) => m.role === 'user').map((m) => textParts(m).filter((t) => !isContextBlock(t)).join(''));
}

export function assistantTexts(req: RecordedRequest): string[] {
  return req.body.messages.filter((m) => m.role === 'assistant').map(contentText);
}
