// A core over real HTTP for a test file: one scripted model server for the file and, per test, a
// fresh workspace (`ws`) and KEEL_HOME under a temporary folder, with a Context whose model is
// that server ('local/scripted'), destroyed after the test. Optional stdio MCP servers, given in
// mcp.json's shape, start as `--mcp-config` ones.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { ProviderConfig } from '../../../src/core/config/configSchema';
import { Context } from '../../../src/core/context';
import { createFsHost } from '../../../src/core/fsHost';
import { parseMcpConfig } from '../../../src/core/mcp/mcpConfig';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';

export interface ScriptedCore {
  readonly model: ScriptedServer;
  /** The test's workspace folder. */
  readonly ws: string;
  /** A Context for the test; `provider` adds to the scripted provider's config (the person's own layer). */
  context(opts?: { servers?: Record<string, unknown>; provider?: Partial<ProviderConfig> }): Promise<Context>;
}

export function scriptedCore(prefix: string): ScriptedCore {
  let model: ScriptedServer | undefined;
  let dir = '';
  let ctx: Context | undefined;
  beforeAll(async () => {
    model = await startScriptedServer();
  });
  afterAll(() => model?.close());
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    mkdirSync(join(dir, 'ws'));
    mkdirSync(join(dir, 'home'));
  });
  afterEach(async () => {
    await ctx?.destroy();
    ctx = undefined;
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get model() {
      return model!;
    },
    get ws() {
      return join(dir, 'ws');
    },
    async context(opts = {}) {
      const ws = join(dir, 'ws');
      ctx = await Context.create({
        folders: [{ path: ws }],
        host: createFsHost(),
        env: { KEEL_HOME: join(dir, 'home'), PATH: process.env.PATH },
        overrides: [{ model: 'local/scripted', providers: { local: { baseURL: model!.baseURL, ...opts.provider } } }],
        ...(opts.servers ? { mcpServers: parseMcpConfig({ servers: opts.servers }, 'cli', { workspaceFolder: ws, env: {} }, '--mcp-config') } : {}),
      });
      return ctx;
    },
  };
}
