// `npm run test:conformance`: the MCP conformance suite's client scenarios against the real
// `keel run`. Bundles the CLI once, then lets the suite run test/conformance/keelClient.ts per
// scenario. Scenarios Keel does not pass yet are listed in test/conformance/baseline.yml with
// the reason; the suite fails on a new failure and on a listed scenario that now passes.
// Usage: node scripts/runConformance.mjs [--scenario NAME] [--suite NAME] (default: --suite all)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const node22 = join(root, 'node_modules/.bin/node');
const outDir = mkdtempSync(join(tmpdir(), 'keel-conformance-cli-'));
const cli = join(outDir, 'cli.js');
await build({
  entryPoints: [join(root, 'src/cli/main.ts')],
  outfile: cli,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  define: { KEEL_VERSION: JSON.stringify(process.env.npm_package_version ?? '0.0.0-conformance') },
  logLevel: 'warning',
});
const given = process.argv.slice(2);
const selection = given.length ? given : ['--suite', 'all'];
const args = [
  join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
  'client',
  '--command', `${node22} ${join(root, 'test/conformance/keelClient.ts')}`,
  '--expected-failures', join(root, 'test/conformance/baseline.yml'),
  // Per scenario (default 30 s): the whole suite runs at once, and a sign-in scenario starts
  // `keel run`, the model server and a browser round trip, which a busy machine makes slow.
  '--timeout', '120000',
  ...selection,
];
const run = spawnSync(node22, args, { cwd: outDir, stdio: 'inherit', env: { ...process.env, KEEL_CONFORMANCE_CLI: cli } });
rmSync(outDir, { recursive: true, force: true });
if (run.error) throw run.error;
process.exit(run.status ?? 1);
