import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Context } from '../../../src/core/context';
import { createFsHost } from '../../../src/core/fsHost';
import { listModels } from '../../../src/chat/runtime/coreQueries';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer';

let server: ScriptedServer;
let dir: string;
beforeAll(async () => {
  server = await startScriptedServer({ scenario: { turns: [], models: ['qwen3-coder', 'llama-4'] } });
  dir = mkdtempSync(join(tmpdir(), 'keel-models-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function contextWith(baseURL: string, logs: string[] = []) {
  return Context.create({
    folders: [{ path: dir }],
    host: createFsHost({ log: (_level, message) => logs.push(message) }),
    env: { KEEL_HOME: join(dir, 'home') },
    overrides: [{ model: 'custom/qwen3-coder', modelAliases: { fast: 'custom/llama-4' }, providers: { custom: { baseURL } } }],
  });
}

describe('models.list', () => {
  it('lists the configured models first, then what the endpoint offers, all under their own names (no custom/ prefix)', async () => {
    const listed = await listModels(await contextWith(server.baseURL));
    expect(listed.current).toBe('custom/qwen3-coder');
    expect(listed.models.map((m) => [m.id, m.label])).toEqual([
      ['custom/qwen3-coder', 'qwen3-coder'],
      ['fast', 'fast → custom/llama-4'],
      ['custom/llama-4', 'llama-4'],
    ]);
  });

  it('still lists the configured models when the endpoint has no list, and logs why', async () => {
    const logs: string[] = [];
    const listed = await listModels(await contextWith(server.url, logs));
    expect(listed.models.map((m) => m.id)).toEqual(['custom/qwen3-coder', 'fast']);
    expect(logs.join('\n')).toContain('answered 404');
  });
});
