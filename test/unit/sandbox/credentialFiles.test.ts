import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireRealSandbox, runSandboxed, sandboxFixture } from './sandboxFixture';
import type { SandboxFixture } from './sandboxFixture';

/** The person's logins in their home folder, each holding a marker a sandboxed `cat` must not print. */
const credentialFiles = [
  '.npmrc',
  '.pypirc',
  '.cargo/credentials.toml',
  '.cargo/credentials',
  '.git-credentials',
  '.config/git/credentials',
  '.config/gh/hosts.yml',
  '.docker/config.json',
  '.kube/config',
  '.aws/credentials',
  '.config/gcloud/application_default_credentials.json',
  '.netrc',
  '.ssh/id_ed25519',
  '.gem/credentials',
  '.config/containers/auth.json',
  '.vault-token',
];

describe('credential files are hidden from sandboxed commands (real bubblewrap)', () => {
  let f: SandboxFixture;
  beforeAll(async () => {
    await requireRealSandbox();
    f = await sandboxFixture();
    for (const file of credentialFiles) {
      const path = join(f.home, file);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, `credential-marker ${file}\n`);
    }
    await writeFile(join(f.home, '.bashrc'), 'plain-marker\n');
  });
  afterAll(async () => f?.dispose());

  it('cat prints none of them, and still reads the rest of the home folder', async () => {
    const ran = await runSandboxed(f, `${credentialFiles.map((c) => `cat ~/'${c}' 2>/dev/null;`).join(' ')} cat ~/.bashrc`);
    expect(ran.output).toContain('plain-marker');
    for (const file of credentialFiles) expect(ran.output, file).not.toContain(`credential-marker ${file}\n`);
  });
});
