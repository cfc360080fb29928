import { KeelError, errorMessage } from '../core/errors';
import { batchedOutput } from './batchedOutput';
import { parseCliArgs, usage } from './cliArgs';
import { applyCliLocale } from './cliLocale';
import { runCommand } from './runCommand';
import type { CliIo } from './cliIo';
import { restoreCommand } from './restoreCommand';
import { sessionsCommand } from './sessionsCommand';

declare const KEEL_VERSION: string;

// Batched stdout; stderr first writes what stdout holds, so the two stay in order on a terminal.
const stdout = batchedOutput((s) => process.stdout.write(s));
// Whatever ends the process, what was printed gets out.
process.once('exit', () => stdout.flush());

async function main(): Promise<number> {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 22) {
    process.stderr.write(`keel needs Node.js 22 or newer (this is ${process.versions.node}).\n`);
    return 2;
  }
  const io: CliIo = {
    stdout: (s) => stdout.write(s),
    stderr: (s) => {
      stdout.flush();
      process.stderr.write(s);
    },
    env: process.env,
  };
  applyCliLocale(process.env);
  try {
    const args = parseCliArgs(process.argv.slice(2), process.cwd());
    // stream-json is read by programs: its text stays English whatever the person's locale.
    if (args.command === 'run' && args.output === 'stream-json') applyCliLocale({});
    if (args.command === 'help') {
      io.stdout(`${usage()}\n`);
      return 0;
    }
    if (args.command === 'version') {
      io.stdout(`${KEEL_VERSION}\n`);
      return 0;
    }
    if (args.command === 'sessions') return sessionsCommand(args, io);
    if (args.command === 'restore') return await restoreCommand(args, io);
    if (args.prompt === '-') args.prompt = (await readStdin()).trim();
    const controller = new AbortController();
    const onSignal = () => controller.abort(new Error('interrupted'));
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    return await runCommand(args, io, controller.signal, KEEL_VERSION);
  } catch (err) {
    // KeelErrors are usage, configuration and session problems: exit 2 with the reason on stderr.
    if (err instanceof KeelError) {
      io.stderr(`keel: ${err.message}\n`);
      return 2;
    }
    io.stderr(`keel: ${errorMessage(err)}\n`);
    return 1;
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

main().then(
  (code) => {
    stdout.flush();
    process.exitCode = code;
  },
  (err: unknown) => {
    stdout.flush();
    process.stderr.write(`keel: ${errorMessage(err)}\n`);
    process.exitCode = 1;
  },
);
