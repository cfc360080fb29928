import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';

export interface ServerProcess {
  baseURL: string;
  url: string;
  load(scenario: unknown): Promise<void>;
  close(): void;
}

/** Starts the scripted model server in its own process, so its CPU is not counted as Keel's. */
export async function spawnScriptedServer(): Promise<ServerProcess> {
  const root = process.cwd();
  const child = spawn(process.execPath, [join(root, 'test/fixtures/scriptedServer/main.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const first = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once('line', (l) => resolve(l));
    child.once('exit', (code) => reject(new Error(`scripted server exited with ${code}`)));
  });
  const { url, baseURL } = JSON.parse(first) as { url: string; baseURL: string };
  return {
    url,
    baseURL,
    async load(scenario) {
      const res = await fetch(`${url}/__scenario`, { method: 'POST', body: JSON.stringify(scenario), headers: { 'content-type': 'application/json' } });
      if (!res.ok) throw new Error(`loading scenario failed: ${res.status} ${await res.text()}`);
    },
    close() {
      child.kill('SIGTERM');
    },
  };
}
