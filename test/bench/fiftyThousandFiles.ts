import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** 50,000 small TypeScript files under `root`: 50 packages × 20 folders × 50 files. */
export async function writeFiftyThousandFiles(root: string): Promise<void> {
  for (let p = 0; p < 50; p++) {
    for (let d = 0; d < 20; d++) {
      const dir = join(root, 'packages', `pkg${p}`, `mod${d}`);
      await mkdir(dir, { recursive: true });
      await Promise.all(Array.from({ length: 50 }, (_, f) => writeFile(join(dir, `file${f}.ts`), `export const v${f} = ${f};\n`)));
    }
  }
}
