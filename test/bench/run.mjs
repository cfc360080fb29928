// Runs every test/bench/*.bench.ts (or those whose file name contains an argument),
// printing one table of medians. Bundled with esbuild so the benches import src/ as-is.
import { build } from 'esbuild';
import { readdirSync, mkdirSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error(`no bench files match ${filters.join(' ')}`);
  process.exit(2);
}

const outDir = join(root, '.cache', 'bench');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
await build({
  entryPoints: files.map((f) => join(here, f)),
  outdir: outDir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  outExtension: { '.js': '.mjs' },
  logLevel: 'warning',
});

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (n) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));

const rows = [];
let failed = false;
for (const f of files) {
  const mod = await import(pathToFileURL(join(outDir, f.replace(/\.ts$/, '.mjs'))).href);
  const suite = mod.suite;
  for (const bench of suite.benches) {
    process.stderr.write(`running ${suite.name} / ${bench.name} ...\n`);
    const samples = [];
    let state;
    try {
      state = bench.setup ? await bench.setup() : undefined;
      const warmup = bench.warmup ?? 1;
      for (let i = 0; i < warmup; i++) await bench.run(state);
      for (let i = 0; i < (bench.runs ?? 7); i++) {
        const t0 = performance.now();
        const r = await bench.run(state);
        samples.push(typeof r === 'number' ? r : performance.now() - t0);
      }
    } catch (err) {
      failed = true;
      rows.push([suite.name, bench.name, 'ERROR', '', '', bench.target, String(err?.message ?? err)]);
      continue;
    } finally {
      if (bench.teardown) await bench.teardown(state);
    }
    const med = median(samples);
    const unit = bench.unit ?? 'ms';
    rows.push([
      suite.name,
      bench.name,
      `${fmt(med)} ${unit}`,
      `${fmt(Math.min(...samples))}`,
      `${fmt(Math.max(...samples))}`,
      bench.target,
      // A row kept for scale or information (git alone, a worst case) has no target to meet.
      bench.target === 'for scale' || bench.target === 'info' ? '—' : med <= bench.limit ? 'meets' : `misses (x${(med / bench.limit).toFixed(1)})`,
    ]);
  }
}

const header = ['suite', 'benchmark', 'median', 'min', 'max', 'target', 'result'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const line = (cells) => '| ' + cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ') + ' |';
console.log(line(header));
console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
for (const r of rows) console.log(line(r));
process.exit(failed ? 1 : 0);
