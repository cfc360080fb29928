// The extension host replaces Error.prepareStackTrace, which switches off Node's own
// source-map rewriting of stacks; failures of bundled suites would then point into the
// bundle. This maps each "file:line:col" of a stack back through the inline source maps
// (recorded by Node once process.setSourceMapsEnabled(true) ran before the suites loaded).
import { findSourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const location = /(\(|at )([^()\s]+?\.js):(\d+):(\d+)(\)?)/g;

function originalPath(source: string): string {
  return source.startsWith('file:') ? fileURLToPath(source) : source;
}

export function sourceMappedStack(stack: string): string {
  return stack.replace(location, (whole, before: string, file: string, line: string, column: string, after: string) => {
    const map = findSourceMap(file);
    if (!map) return whole;
    const entry = map.findEntry(Number(line) - 1, Number(column) - 1);
    if (!entry || !('originalSource' in entry) || !entry.originalSource) return whole;
    return `${before}${originalPath(entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}${after}`;
  });
}
