import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Loads one of this folder's library modules (`googleAuthSdk`, `bedrockSdk`) on first use: the build's
 * own file next to the bundle (`dist/<name>.js`, CommonJS, so it is required: an import would run
 * Node's CommonJS export scan over the whole file first), else this folder's source (tests run
 * from source). The path is computed so that no bundler folds the library into the bundle that
 * loads it: esbuild's lazy wrapping of a dynamically imported module breaks zod's initialisation
 * order in the rest of the bundle.
 */
export async function importSdk<T>(name: string): Promise<T> {
  const built = join(__dirname, `${name}.js`);
  if (existsSync(built)) return createRequire(built)(built) as T;
  return (await import(/* @vite-ignore */ pathToFileURL(join(__dirname, `${name}.ts`)).href)) as T;
}
