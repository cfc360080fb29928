// Run as a separate Node process by the concurrency and lock tests (bundled with esbuild first).
//   append <home> <root> <count>  create a session, append <count> messages, print its id
//   hold <home> <root> <id>       open a session for writing, print "writable"/"read-only", wait for stdin to close
import { SessionStore } from '../../../src/core/session/sessionStore';

const [command, home, root, arg] = process.argv.slice(2);
if (!command || !home || !root || !arg) throw new Error('usage: sessionWorker <append|hold> <home> <root> <arg>');
const store = new SessionStore({ home, workspace: { root } });

if (command === 'append') {
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
