// The person's own per-model settings (a provider's `models` entry: maxOutputTokens, temperature)
// go out with every call of a run, over real HTTP; the same settings in a workspace's
// .keel/config.json are not used (a workspace may describe models, not spend the person's tokens).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../../src/core/config/configSchema';
import { Project } from '../../../src/core/project';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { scriptedCore } from '../core/scriptedCore';

const core = scriptedCore('keel-model-settings-');

async function ask(personal: Partial<ProviderConfig>): Promise<Record<string, unknown>> {
  core.model.load({ turns: [reply.text('ok')] });
  const ctx = await core.context({ provider: personal });
  const result = await new Project(ctx, ctx.sessions.create()).send('hi');
  expect(result.status).toBe('completed');
  return core.model.requests.at(-1)!.body as unknown as Record<string, unknown>;
}

describe("a model's own settings", () => {
  it('send the output limit and temperature the person set for that model', async () => {
    const body = await ask({ models: { scripted: { maxOutputTokens: 1234, temperature: 0.3 } } });
    expect(body.max_tokens).toBe(1234);
    expect(body.temperature).toBe(0.3);
  });

  it('are not taken from a workspace config', async () => {
    mkdirSync(join(core.ws, '.keel'));
    writeFileSync(join(core.ws, '.keel', 'config.json'), JSON.stringify({ providers: { local: { models: { scripted: { maxOutputTokens: 99999, temperature: 1.9 } } } } }));
    const body = await ask({});
    expect(body.max_tokens).toBeUndefined();
    expect(body.temperature).toBeUndefined();
  });
});
