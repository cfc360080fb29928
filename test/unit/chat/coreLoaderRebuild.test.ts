import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFsHost } from '../../../src/core/fsHost';
import { CoreLoader } from '../../../src/chat/runtime/coreLoader';
import type { BuiltCore } from '../../../src/chat/runtime/coreLoader';
import type { KeelSettings } from '../../../src/chat/settings/settingsLayer';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function loader(settings: () => KeelSettings, apiKey: () => Promise<undefined> = async () => undefined): CoreLoader {
  const root = mkdtempSync(join(tmpdir(), 'keel-loader-'));
  made.push(root);
  mkdirSync(join(root, 'ws'));
  return new CoreLoader(
    {
      folders: () => [{ path: join(root, 'ws'), name: 'ws' }],
      workspaceFile: () => undefined,
      trusted: () => true,
      settings: () => ({ settings: settings(), problems: [], fromWorkspace: {}, userModels: {}, narrowing: [] }),
      apiKey,
      plugins: () => [],
      host: createFsHost(),
      env: { KEEL_HOME: join(root, 'home') },
    },
    () => undefined,
  );
}

/** Whether `built`'s Context has been shut down (destroy() called), read at any time. */
function watchShutDown(built: BuiltCore): () => boolean {
  let shutDown = false;
  const destroy = built.ctx.destroy.bind(built.ctx);
  built.ctx.destroy = () => ((shutDown = true), destroy());
  return () => shutDown;
}

describe('CoreLoader', () => {
  it('a settings change while a build is in flight is not lost: the next core has it', async () => {
    let settings: KeelSettings = { approvalMode: 'manual' };
    let reads = 0;
    let release!: () => void;
    const keysAsked = new Promise<void>((resolve) => (release = resolve));
    // The build reads the settings, then waits for the API keys (SecretStorage is async).
    const core = loader(
      () => (reads++, settings),
      async () => {
        await keysAsked;
        return undefined;
      },
    );
    const first = core.get();
    while (reads === 0) await new Promise((r) => setImmediate(r));
    // The person changes a setting while that build is still running.
    settings = { approvalMode: 'autoEdit' };
    core.invalidate('settings changed');
    const second = core.get();
    release();
    expect((await first).ctx.config.approvalMode).toBe('manual');
    expect((await second).ctx.config.approvalMode).toBe('autoEdit');
    expect((await core.get()).ctx.config.approvalMode).toBe('autoEdit');
  });

  it('while the core is being rebuilt, callers wait for the new one instead of getting the old one', async () => {
    let settings: KeelSettings = { approvalMode: 'manual' };
    let gate: Promise<void> = Promise.resolve();
    const core = loader(
      () => settings,
      async () => {
        await gate;
        return undefined;
      },
    );
    expect((await core.get()).ctx.config.approvalMode).toBe('manual');
    let release!: () => void;
    gate = new Promise<void>((resolve) => (release = resolve));
    settings = { approvalMode: 'autoEdit' };
    core.invalidate('settings changed');
    const rebuilding = core.get();
    const meanwhile = core.get();
    release();
    expect((await rebuilding).ctx.config.approvalMode).toBe('autoEdit');
    expect((await meanwhile).ctx.config.approvalMode).toBe('autoEdit');
  });

  it('callers during one build share it', async () => {
    const core = loader(() => ({}));
    const [a, b] = await Promise.all([core.get(), core.get()]);
    expect(a).toBe(b);
  });

  it('a core a run holds is neither replaced nor shut down until the run releases it', async () => {
    let settings: KeelSettings = { approvalMode: 'manual' };
    const core = loader(() => settings);
    const held = await core.hold();
    const shutDown = watchShutDown(held.built);

    settings = { approvalMode: 'autoEdit' };
    core.invalidate('settings changed');
    expect(await core.get()).toBe(held.built);
    expect(shutDown()).toBe(false);

    held.release();
    const next = await core.get();
    expect(next).not.toBe(held.built);
    expect(next.ctx.config.approvalMode).toBe('autoEdit');
    expect(shutDown()).toBe(true);
  });

  it('the old core waits for its run to end before it is shut down, even when a new one is built meanwhile', async () => {
    let settings: KeelSettings = { approvalMode: 'manual' };
    const core = loader(() => settings);
    const first = await core.hold();
    const second = await core.hold();
    const shutDown = watchShutDown(first.built);
    settings = { approvalMode: 'autoEdit' };
    core.invalidate('settings changed');
    first.release();
    // One run still holds it: callers keep getting it.
    expect(await core.get()).toBe(first.built);
    second.release();
    second.release();
    expect((await core.get()).ctx.config.approvalMode).toBe('autoEdit');
    expect(shutDown()).toBe(true);
  });
});
