// Packages an extension folder as <name>-<version>.vsix with vsce. Everything the extension
// needs at run time is bundled by esbuild into dist/, hence --no-dependencies.
// Usage: node scripts/packageVsix.mjs [extensionDir] [--out file.vsix] [--build]
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './lib/paths.mjs';
import { log, run, step } from './lib/steps.mjs';

const PREFIX = 'package';

export function readManifest(extensionDir) {
  const file = join(extensionDir, 'package.json');
  if (!existsSync(file)) throw new Error(`no package.json in ${extensionDir}`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

export function extensionIdOf(extensionDir) {
  const manifest = readManifest(extensionDir);
  return `${manifest.publisher}.${manifest.name}`.toLowerCase();
}

// `npm run build` in the extension folder when it has a build script; a folder without one
// is taken as already built (its `main` must exist). What goes into a .vsix is built with
// `--production` (minified, no sourcemaps); test runs keep sourcemaps for readable stacks.
export async function buildExtension(extensionDir, { production = false } = {}) {
  const manifest = readManifest(extensionDir);
  if (manifest.scripts?.build) {
    const args = production ? ['run', 'build', '--', '--production'] : ['run', 'build'];
    await step(PREFIX, `npm ${args.join(' ')} in ${extensionDir}`, () => run('npm', args, { cwd: extensionDir, timeoutMs: 10 * 60_000 }));
  }
  if (manifest.main && !existsSync(resolve(extensionDir, manifest.main))) {
    throw new Error(`the extension's main ${manifest.main} does not exist in ${extensionDir}: build it first`);
  }
}

export async function packageVsix(extensionDir, { out, build = false } = {}) {
  const dir = resolve(extensionDir);
  const manifest = readManifest(dir);
  // Without either, vsce packs the whole folder, .cache/ (code-server, ~600 MB) included.
  if (!manifest.files && !existsSync(join(dir, '.vscodeignore'))) {
    throw new Error(`${dir} has neither a "files" list in package.json nor a .vscodeignore: the .vsix would take in the whole folder`);
  }
  if (build) await buildExtension(dir, { production: true });
  const vsix = resolve(out ?? join(dir, `${manifest.name}-${manifest.version}.vsix`));
  const vsce = join(repoRoot, 'node_modules', '.bin', 'vsce');
  const args = ['package', '--no-dependencies', '--out', vsix];
  // vsce asks on stdin about a missing repository or LICENSE; stdin is closed here, so
  // answer with flags instead of hanging, and only when the manifest lacks them.
  // Without a repository vsce cannot turn the README's relative image links into URLs and
  // refuses them; left as they are, they resolve inside the installed extension (the
  // screenshots ship in the .vsix, see .vscodeignore).
  if (!manifest.repository) args.push('--allow-missing-repository', '--no-rewrite-relative-links');
  if (!existsSync(join(dir, 'LICENSE')) && !existsSync(join(dir, 'LICENSE.md')) && !existsSync(join(dir, 'LICENSE.txt'))) args.push('--skip-license');
  await step(PREFIX, `vsce ${args.join(' ')}`, () => run(vsce, args, { cwd: dir, quiet: true, timeoutMs: 5 * 60_000 }));
  return vsix;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { out: { type: 'string' }, build: { type: 'boolean', default: false } } });
  packageVsix(positionals[0] ?? repoRoot, { out: values.out, build: values.build })
    .then((vsix) => log(PREFIX, `packaged ${vsix}`))
    .catch((error) => {
      console.error(`[${PREFIX}] FAILED: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    });
}
