#!/usr/bin/env node
// The `keel` command (package.json "bin"): runs the built CLI (dist/cli.js) on Node 22.
// The machine's `node`, which starts this file through `npx keel` or after `npm link`, may be
// older than the CLI needs; the project installs its own Node 22 (the `node` package), so the
// CLI runs on that one, and on the current Node only when there is none and it is new enough.
// Kept to syntax any Node since 14 parses, so an old one reaches the message below.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const NEEDED = 22;
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const projectNode = fileURLToPath(new URL(`../node_modules/node/bin/node${process.platform === 'win32' ? '.exe' : ''}`, import.meta.url));

function fail(message) {
  process.stderr.write(`keel: ${message}\n`);
  process.exit(2);
}

if (!existsSync(cli)) fail(`${cli} is not built yet: run "npm run build" in ${fileURLToPath(new URL('..', import.meta.url))}`);
const major = Number(process.versions.node.split('.')[0]);
const node = existsSync(projectNode) ? projectNode : major >= NEEDED ? process.execPath : undefined;
if (!node) fail(`Keel needs Node ${NEEDED} or newer (this is ${process.version}), and the project's own Node is not installed: run "npm install" in the Keel folder`);

const child = spawn(node, [cli, ...process.argv.slice(2)], { stdio: 'inherit' });
// Ctrl+C reaches the CLI from the terminal itself (same process group), which stops its run
// cleanly: this process only waits for it. A kill aimed at this process alone is passed on.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('error', (error) => fail(`could not start ${node}: ${error.message}`));
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
