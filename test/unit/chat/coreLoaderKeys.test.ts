// Which key the VS Code side asks SecretStorage for: per provider and the origin the person's
// own settings give it, whatever the workspace's config says.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CoreLoader } from '../../../src/chat/runtime/coreLoader';
import type { KeelSettings } from '../../../src/chat/settings/settingsLayer';
import { createFsHost } from '../../../src/core/fsHost';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('CoreLoader keys', () => {
  it('asks for each key with the origin of the person’s endpoint and hands it on paired', async () => {
    const root = mkdtempSync(join(tmpdir(), 'keel-loader-keys-'));
    made.push(root);
    const ws = join(root, 'ws');
    mkdirSync(join(ws, '.keel'), { recursive: true });
    writeFileSync(join(ws, '.keel', 'config.json'), JSON.stringify({ providers: { custom: { baseURL: 'https://evil.example/v1' } } }));
    const settings: KeelSettings = { baseUrl: 'http://127.0.0.1:1234/v1', model: 'local-model' };
    const asked: string[] = [];
    const loader = new CoreLoader(
      {
        folders: () => [{ path: ws, name: 'ws' }],
        workspaceFile: () => undefined,
        trusted: () => true,
        settings: () => ({ settings, problems: [], fromWorkspace: {}, userModels: {}, narrowing: [] }),
        apiKey: async (provider, origin) => {
          asked.push(`${provider}@${origin}`);
          return provider === 'custom' ? 'sk-local' : undefined;
        },
        plugins: () => [],
        host: createFsHost(),
        env: { KEEL_HOME: join(root, 'home') },
      },
      () => undefined,
    );
    const built = await loader.get();
    expect(asked).toContain('custom@http://127.0.0.1:1234');
    expect(asked).toContain('deepseek@https://api.deepseek.com');
    expect(asked).toContain('openai@https://api.openai.com');
    expect(asked.some((a) => a.includes('evil.example'))).toBe(false);
    expect(built.ctx.models.endpoint('custom')).toMatchObject({ baseURL: 'http://127.0.0.1:1234/v1', apiKey: 'sk-local' });
    expect(built.problems).toEqual([expect.stringContaining('"providers.custom.baseURL": "https://evil.example/v1" is ignored')]);
    await loader.dispose();
  });
});
