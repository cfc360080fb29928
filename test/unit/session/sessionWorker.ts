// Run as a separate Node process by the concurrency and lock tests (bundled with esbuild first).
//   append <home> <root> <count>  create a session, append <count> messages, print its id
//   hold <home> <root> <id>       open a session for writing, print "writable"/"read-only", wait for stdin to close
//   midRun <home> <root> <calls>  start a run, write a prompt and an assistant turn with <calls> tool calls, print the id, hang
//   flood <home> <root> <size>    start a run and append messages of <size> chars until killed (prints the id first)
//   rawAppend <log> <tag> <count> append <count> records straight to one log file (no lock), for O_APPEND tests
import { LogWriter } from '../../../src/core/session/logWriter';
import { SessionStore } from '../../../src/core/session/sessionStore';

const [command, home, root, arg] = process.argv.slice(2);
if (!command || !home || !root || !arg) throw new Error('usage: sessionWorker <append|hold> <home> <root> <arg>');
const store = new SessionStore({ home, workspace: { root } });

if (command === 'rawAppend') {
  const writer = new LogWriter(home);
  for (let i = 0; i < Number(arg); i++) {
    writer.append({ type: 'usage', ts: new Date().toISOString(), inputTokens: i, outputTokens: 0, model: `${root} ${i} ${'y'.repeat(i % 5 === 0 ? 70_000 : 200)}` });
  }
  writer.close();
  process.stdout.write('done\n');
} else if (command === 'midRun') {
  const session = store.create();
  session.startRun();
  session.appendMessage({ role: 'user', content: 'please run the tests' });
  const calls = Number(arg);
  if (calls > 0) {
    session.appendMessage({
      role: 'assistant',
      content: Array.from({ length: calls }, (_, i) => ({ type: 'tool-call' as const, toolCallId: `call_${i}`, toolName: 'bash', input: { command: 'npm test' } })),
    });
  }
  process.stdout.write(`${session.id}\n`);
  setInterval(() => undefined, 60_000);
} else if (command === 'flood') {
  const session = store.create();
  session.startRun();
  session.appendMessage({ role: 'user', content: 'write a lot' });
  process.stdout.write(`${session.id}\n`);
  const text = 'q'.repeat(Number(arg));
  // Prompts only: whatever line the kill lands on, the run ends waiting for a reply.
  for (let i = 0; ; i++) session.appendMessage({ role: 'user', content: `${i} ${text}` });
} else if (command === 'append') {
  const session = store.create();
  for (let i = 0; i < Number(arg); i++) {
    session.appendMessage({ role: i % 2 ? 'assistant' : 'user', content: `${process.pid} message ${i} ${'x'.repeat(i % 7 === 0 ? 5000 : 300)}` });
    session.appendUsage({ inputTokens: 1, outputTokens: 1 });
  }
  session.close();
  process.stdout.write(`${session.id}\n`);
} else if (command === 'hold') {
  const session = store.open(arg);
  process.stdout.write(session.readOnly ? 'read-only\n' : 'writable\n');
  process.stdin.resume();
  process.stdin.on('end', () => session.close());
} else {
  throw new Error(`unknown command ${command}`);
}
