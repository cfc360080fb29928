// The server as a child process: what extension tests in another process will use.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const mainPath = fileURLToPath(new URL('../../fixtures/scriptedServer/main.ts', import.meta.url));
const helloScenario = fileURLToPath(new URL('../../fixtures/scenarios/helloText.json', import.meta.url));

let child: ChildProcess | undefined;

afterEach(async () => {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) {
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
  child = undefined;
});

function start(args: string[]): ChildProcess {
  child = spawn(process.execPath, [mainPath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return child;
}

async function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  const lines = createInterface({ input: stream });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  throw new Error('the process closed stdout without printing a line');
}

describe('scripted server main.ts', () => {
  it('prints its baseURL, serves the scenario file, and exits cleanly on SIGTERM', async () => {
    const proc = start(['--scenario', helloScenario]);
    const { baseURL } = JSON.parse(await firstLine(proc.stdout!)) as { baseURL: string };
    expect(baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);

    const response = await fetch(`${baseURL}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }),
    });
    const body = (await response.json()) as { choices: { message: { content: string } }[] };
    expect(body.choices[0].message.content).toBe('Hello! I am a scripted model. How can I help?');

    const exited = once(proc, 'exit');
    proc.kill('SIGTERM');
    expect(await exited).toEqual([0, null]);
  });

  it('exits 1 naming the file and the problem when the scenario is invalid', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'keel-scenario-'));
    const file = join(dir, 'typo.json');
    await writeFile(file, JSON.stringify({ turns: [{ txt: 'typo' }] }));
    const proc = start(['--scenario', file]);
    let stderr = '';
    proc.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = await once(proc, 'exit');
    expect(code).toBe(1);
    expect(stderr).toContain(`scripted server: ${file}: invalid scenario: turns[0] has unknown key "txt"`);
    await rm(dir, { recursive: true });
  });

  it('exits 1 when the scenario file is not JSON', async () => {
    const proc = start(['--scenario', mainPath]);
    let stderr = '';
    proc.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = await once(proc, 'exit');
    expect(code).toBe(1);
    expect(stderr).toContain(`scripted server: cannot read scenario ${mainPath}:`);
  });
});
