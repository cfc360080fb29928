import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit, type GitEnv } from './gitRunner';
import { personObjects, seedIndex } from './personRepo';

/** What is synced to disk; a first snapshot's trees are synced as one pack instead (snapshotRepo's `packBulk`). */
const durable = 'loose-object,pack,pack-metadata,index';

/**
 * Content is kept as it is on disk: no end-of-line conversion, no clean filters (LFS), whatever
 * the workspace's .gitattributes ask for git (info/attributes wins over them).
 */
const rawAttributes = '* -text -eol -filter -ident -working-tree-encoding\n';

/** A new snapshot store: Keel's own bare GIT_DIR with the settings it relies on, borrowing the person's objects. */
export async function initStore(env: GitEnv, dir: string, workTree: string, objectsDir: string): Promise<void> {
  const { gitDir } = env;
  await mkdir(dir, { recursive: true });
  await runGit(env, ['init', '-q', '--bare', gitDir], { cwd: dir, noWorkTree: true });
  // Appended to what `init` wrote (which may say the file system ignores case): one file
  // write instead of a git process per setting.
  const config: Array<[string, string, string]> = [
    ['core', 'bare', 'false'],
    ['core', 'autocrlf', 'false'],
    ['core', 'safecrlf', 'false'],
    ['core', 'symlinks', 'true'],
    ['core', 'filemode', 'true'],
    ['core', 'fsmonitor', 'false'],
    ['core', 'untrackedCache', 'true'],
    ['core', 'splitIndex', 'false'],
    ['core', 'bigFileThreshold', '2g'],
    // The store holds the only copy of what a command overwrote: objects, packs and the
    // index reach the disk before the command runs. `batch` syncs the loose objects of
    // one `add` together (one flush per snapshot), and a first snapshot is one pack.
    ['core', 'fsync', durable],
    ['core', 'fsyncMethod', 'batch'],
    ['index', 'version', '4'],
    ['gc', 'auto', '0'],
    ['advice', 'addEmbeddedRepo', 'false'],
    ['advice', 'addIgnoredFile', 'false'],
  ];
  await appendFile(join(gitDir, 'config'), config.map(([section, key, value]) => `[${section}]\n\t${key} = ${value}\n`).join(''));
  await mkdir(join(gitDir, 'info'), { recursive: true });
  await writeFile(join(gitDir, 'info', 'attributes'), rawAttributes);
  const person = await personObjects(workTree);
  if (person) {
    await mkdir(join(objectsDir, 'info'), { recursive: true });
    await writeFile(join(objectsDir, 'info', 'alternates'), `${person.objects}\n`);
    await seedIndex(env, person.index);
  }
}
