// `npm start`: Keel in a real VS Code in your browser. Installs code-server if needed,
// builds and packages the extension, installs the .vsix into a fresh profile and serves
// the workbench on 127.0.0.1 until Ctrl+C.
//
// Usage: node scripts/start.mjs [folder] [--extension DIR] [--port N] [--no-build] [--trust]
// Without a folder it opens a fresh copy of test/fixtures/workspaces/sample (so the agent's
// edits never touch the fixture); a folder given is opened in place. Settings, state and
// sessions live in a throwaway run folder that is removed on exit.
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { rmSync } from 'node:fs';
import { CODE_SERVER_VERSION, ensureCodeServer } from './codeServer/install.mjs';
import { copyWorkspace, launchServer, makeRunDir, tail } from './codeServer/launch.mjs';
import { ensureAptPackages } from './lib/apt.mjs';
import { repoRoot } from './lib/paths.mjs';
import { log, seconds } from './lib/steps.mjs';
import { buildExtension, packageVsix } from './packageVsix.mjs';
import { keelEnvFromProcess } from './runIntegration.mjs';

const PREFIX = 'start';

async function main() {
  const started = Date.now();
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      extension: { type: 'string' },
      port: { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      trust: { type: 'boolean', default: false },
    },
  });
  const extensionDir = resolve(values.extension ?? repoRoot);
  // bubblewrap is the OS sandbox Keel runs commands in on Linux.
  if (process.platform === 'linux') await ensureAptPackages(['bubblewrap'], PREFIX);
  await ensureCodeServer();
  if (!values['no-build']) await buildExtension(extensionDir, { production: true });
  const runDir = makeRunDir('start');
  let server;
  let stopping = false;
  const shutdown = async (why) => {
    if (stopping) return;
    stopping = true;
    log(PREFIX, `${why}: stopping code-server`);
    if (server) await server.stop({ removeRunDir: true });
    else rmSync(runDir, { recursive: true, force: true });
    log(PREFIX, 'stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => { void shutdown('Ctrl+C'); });
  process.on('SIGTERM', () => { void shutdown('SIGTERM'); });

  const vsix = await packageVsix(extensionDir, { out: join(runDir, 'extension.vsix') });
  const folder = positionals[0] ? resolve(positionals[0]) : copyWorkspace(join(repoRoot, 'test', 'fixtures', 'workspaces', 'sample'), runDir);
  server = await launchServer({
    kind: 'code-server',
    runDir,
    folder,
    vsix: [vsix],
    port: values.port ? Number(values.port) : undefined,
    workspaceTrust: values.trust,
    env: keelEnvFromProcess(),
  });
  log(PREFIX, `ready in ${seconds(Date.now() - started)}`);
  console.log(`\n  Keel is running in VS Code (code-server ${CODE_SERVER_VERSION}):\n`);
  console.log(`    open ${server.url}`);
  console.log(`    workspace ${folder}`);
  console.log(`    server log ${server.logFile}`);
  console.log('\n  Press Ctrl+C to stop.\n');
  const exitCode = await server.exited;
  if (!stopping) {
    log(PREFIX, `code-server exited by itself (${exitCode})\n${tail(server.logFile)}`);
    await server.stop({ removeRunDir: false });
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(`[${PREFIX}] FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
