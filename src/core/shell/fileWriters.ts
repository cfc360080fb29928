import type { WordValue } from './commandOptions';

/** Options of the file writers below that take the next word as their argument. */
const withArgument: Record<string, ReadonlySet<string>> = {
  cp: new Set(['-S', '--suffix', '-t', '--target-directory']),
  mv: new Set(['-S', '--suffix', '-t', '--target-directory']),
  ln: new Set(['-S', '--suffix', '-t', '--target-directory']),
  install: new Set(['-S', '--suffix', '-t', '--target-directory', '-m', '--mode', '-o', '--owner', '-g', '--group']),
  touch: new Set(['-r', '--reference', '-d', '--date', '-t']),
  truncate: new Set(['-s', '--size', '-r', '--reference']),
};
/** Every operand is written (or removed). */
const allOperands = new Set(['tee', 'touch', 'truncate', 'rm']);
/** The last operand is written, unless `-t DIR` names the folder. */
const lastOperand = new Set(['cp', 'mv', 'ln', 'install']);

/**
 * Files that common commands write through their arguments (`tee f`, `cp a f`, `touch f`,
 * `rm f`, `dd of=f`), as far as their words show: an allow rule for the command must not
 * cover what it writes. Undefined for a command that is not one of these.
 */
export function fileWriteTargets(words: readonly WordValue[]): WordValue[] | undefined {
  const name = words[0];
  if (name === null || name === undefined) return undefined;
  const base = name.slice(name.lastIndexOf('/') + 1);
  if (base === 'dd') {
    return words.slice(1).flatMap((w) => (w === null ? [null] : w.startsWith('of=') ? [w.slice(3)] : []));
  }
  if (!allOperands.has(base) && !lastOperand.has(base)) return undefined;
  const takesArg = withArgument[base] ?? new Set<string>();
  const operands: WordValue[] = [];
  let target: WordValue | undefined;
  let options = true;
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (options && w === '--') {
      options = false;
      continue;
    }
    if (options && w !== null && w.startsWith('-') && w !== '-') {
      const flag = w.includes('=') ? w.slice(0, w.indexOf('=')) : w;
      const value = w.includes('=') ? w.slice(w.indexOf('=') + 1) : takesArg.has(flag) ? words[++i] ?? null : undefined;
      if (flag === '-t' || flag === '--target-directory') target = value ?? null;
      continue;
    }
    operands.push(w);
  }
  if (allOperands.has(base)) return operands;
  if (target !== undefined) return [target];
  return operands.length >= 2 ? [operands[operands.length - 1]] : [];
}
