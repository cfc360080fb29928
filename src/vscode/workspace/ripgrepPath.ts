import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The ripgrep VS Code ships (`@vscode/ripgrep`), or undefined when this build has none
 * where expected (the search tools then look on PATH and fall back to their own search).
 * Packaged builds keep native binaries outside the asar archive.
 */
export function bundledRipgrep(appRoot: string, exists: (path: string) => boolean = existsSync): string | undefined {
  const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
  for (const modules of ['node_modules.asar.unpacked', 'node_modules']) {
    const candidate = join(appRoot, modules, '@vscode', 'ripgrep', 'bin', exe);
    if (exists(candidate)) return candidate;
  }
  return undefined;
}
