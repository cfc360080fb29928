// The person's own per-model settings (a provider's `models` entry: maxOutputTokens, temperature)
// go out with every call of a run, over real HTTP; the same settings in a workspace's
// .keel/config.json are not used (a workspace may describe models, not spend the person's tokens).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Context } from '../../../src/core/context';
import { createFsHost } from '../../../src/core/fsHost';
import { Project } from '../../../src/core/project';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';

let model: ScriptedServer;
let dir: string;
let ctx: Context | undefined;

beforeAll(async () => {
  model = await startScriptedServer();
});
afterAll(() => model.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-model-settings-'));
  mkdirSync(join(dir, 'ws', '.keel'), { recursive: true });
  mkdirSync(join(dir, 'home'));
});
afterEach(async () => {
  await ctx?.destroy();
  ctx = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function ask(personal: Record<string, unknown>): Promise<Record<string, unknown>> {
  model.load({ turns: [reply.text('ok')] });
  ctx = await Context.create({
    folders: [{ path: join(dir, 'ws') }],
    host: createFsHost(),
    env: { KEEL_HOME: join(dir, 'home'), PATH: process.env.PATH },
    overrides: [{ model: 'local/scripted', providers: { local: { baseURL: model.baseURL, ...personal } } }],
  });
  const result = await new Project(ctx, ctx.sessions.create()).send('hi');
  expect(result.status).toBe('completed');
  return model.requests.at(-1)!.body as unknown as Record<string, unknown>;
}

describe("a model's own settings", () => {
  it('send the output limit and temperature the person set for that model', async () => {
    const body = await ask({ models: { scripted: { maxOutputTokens: 1234, temperature: 0.3 } } });
    expect(body.max_tokens).toBe(1234);
    expect(body.temperature).toBe(0.3);
  });

  it('are not taken from a workspace config', async () => {
    writeFileSync(join(dir, 'ws', '.keel', 'config.json'), JSON.stringify({ providers: { local: { models: { scripted: { maxOutputTokens: 99999, temperature: 1.9 } } } } }));
    const body = await ask({});
    expect(body.max_tokens).toBeUndefined();
    expect(body.temperature).toBeUndefined();
  });
});
