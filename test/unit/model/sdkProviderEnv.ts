// Points google-auth-library's Application Default Credentials at the scripted server's metadata
// route, as on a Google Cloud machine: the library reads these from the process environment.
// Any credentials file of the machine's own is hidden meanwhile, so the test cannot use it.
import { mkdtempSync, rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const names = ['GCE_METADATA_HOST', 'METADATA_SERVER_DETECTION', 'GOOGLE_APPLICATION_CREDENTIALS', 'CLOUDSDK_CONFIG'] as const;

export function useMetadataServer(url: string): () => void {
  const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  process.env.GCE_METADATA_HOST = new URL(url).host;
  process.env.METADATA_SERVER_DETECTION = 'assume-present';
  delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
  const gcloud = mkdtempSync(join(tmpdir(), 'keel-gcloud-'));
  process.env.CLOUDSDK_CONFIG = gcloud;
  return () => {
    rmSync(gcloud, { recursive: true, force: true });
    for (const n of names) {
      if (saved[n] === undefined) delete process.env[n];
      else process.env[n] = saved[n];
    }
  };
}

/** A scripted server for the file's tests, serving as the metadata server too; `server()` is it once started. */
export function scriptedServerWithMetadata(): () => ScriptedServer {
  let server: ScriptedServer | undefined;
  let restore = (): void => {};
  beforeAll(async () => {
    server = await startScriptedServer();
    restore = useMetadataServer(server.url);
  });
  afterAll(async () => {
    restore();
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('the scripted server is not started yet');
    return server;
  };
}
