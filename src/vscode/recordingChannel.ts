import type * as vscode from 'vscode';

const levels = new Set<PropertyKey>(['trace', 'debug', 'info', 'warn', 'error']);

/**
 * The "Keel" log channel that also keeps the lines written to it, for the extension's own
 * test runs (the test hooks read them); never used for people's sessions.
 */
export function recordingChannel(channel: vscode.LogOutputChannel, lines: string[]): vscode.LogOutputChannel {
  return new Proxy(channel, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (!levels.has(property)) return value.bind(target);
      return (message: unknown, ...rest: unknown[]) => {
        lines.push(`${String(property)}: ${message instanceof Error ? message.message : String(message)}`);
        return (value as (...a: unknown[]) => unknown).apply(target, [message, ...rest]);
      };
    },
  });
}
