import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpRuntimePaths } from '../../../src/core/sandbox/tmpRuntime';
import { requireRealSandbox, run, sandboxFixture } from './sandboxFixture';
import type { SandboxFixture } from './sandboxFixture';

describe('what stays visible under the sandbox\'s empty /tmp', () => {
  it('keeps Node, the PATH folders and named files under /tmp, a node_modules tree whole, and nothing else', () => {
    const dir = mkdtempSync('/tmp/keel-tmp-paths-');
    try {
      mkdirSync(join(dir, 'node_modules', 'node', 'bin'), { recursive: true });
      writeFileSync(join(dir, 'node_modules', 'node', 'bin', 'node'), '');
      writeFileSync(join(dir, 'script.js'), '');
      const paths = tmpRuntimePaths({
        execPath: join(dir, 'node_modules', 'node', 'bin', 'node'),
        pathVar: ['/usr/bin', '/tmp', '/tmp/nowhere-keel-test', join(dir, 'node_modules', '.bin')].join(':'),
        extra: ['relative/script.js', join(dir, 'script.js')],
      });
      expect(paths).toEqual([join(dir, 'node_modules'), join(dir, 'script.js')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('with the real bubblewrap', () => {
    let f: SandboxFixture;
    let project: string;
    beforeAll(async () => {
      await requireRealSandbox();
      f = await sandboxFixture();
      // A checkout under /tmp whose tools live in its node_modules/.bin, as `npm test` puts them on PATH.
      project = mkdtempSync('/tmp/keel-tmp-project-');
      mkdirSync(join(project, 'node_modules', 'tool', 'bin'), { recursive: true });
      const tool = join(project, 'node_modules', 'tool', 'bin', 'tool.sh');
      writeFileSync(tool, '#!/bin/sh\necho tool ran\n');
      chmodSync(tool, 0o755);
      mkdirSync(join(project, 'node_modules', '.bin'));
      await run(['ln', '-s', '../tool/bin/tool.sh', join(project, 'node_modules', '.bin', 'tool')], project);
      writeFileSync(join(project, 'notes.txt'), 'not on any path\n');
    });
    afterAll(async () => {
      rmSync(project, { recursive: true, force: true });
      await f?.dispose();
    });

    it('runs a tool of a project under /tmp, read-only, and keeps the rest of /tmp hidden', async () => {
      const tool = join(project, 'node_modules', '.bin', 'tool');
      const start = await f.sandbox.start({ cwd: f.ws, network: false, visible: [tool] });
      try {
        const ran = await run(
          [...start.prefix, '/bin/sh', '-c', `'${tool}'; cat '${join(project, 'notes.txt')}' 2>/dev/null || echo hidden; touch '${join(project, 'node_modules', 'x')}' 2>/dev/null || echo read-only`],
          f.ws,
          { HOME: f.home },
        );
        expect(ran.output).toContain('tool ran');
        expect(ran.output).toContain('hidden');
        expect(ran.output).not.toContain('not on any path');
        expect(ran.output).toContain('read-only');
      } finally {
        await start.release();
      }
    });
  });
});
