/** A word's value when it is known before the command runs; null when it is not. */
export type WordValue = string | null;

/** Which options a command accepts, so its operands (often another command) can be found. */
export interface OptionSpec {
  /** Single-letter options without an argument. */
  flags?: string;
  /** Single-letter options that take an argument (attached, `-n5`, or the next word). */
  withArg?: string;
  /** Single-letter options whose argument is optional and only attached (`xargs -i{}`). */
  optionalArg?: string;
  /** Accept `-10` style numbers as options (`nice -10`). */
  numeric?: boolean;
  /** Long options without an argument. */
  longFlags?: readonly string[];
  /** Long options with an argument (`--x=v` or `--x v`). */
  longWithArg?: readonly string[];
  /** Long options whose argument is optional and only given with `=`. */
  longOptionalArg?: readonly string[];
}

export type OptionScan =
  | { ok: true; index: number; options: { name: string; value?: WordValue }[] }
  | { ok: false; problem: string };

/**
 * Walks the options at the start of `words` (from `start`), returning where the operands
 * begin. Unknown options and options not known until run are problems: the operands could
 * then be anything, so nothing can be concluded about them.
 */
export function scanOptions(words: readonly WordValue[], start: number, spec: OptionSpec): OptionScan {
  const options: { name: string; value?: WordValue }[] = [];
  let i = start;
  while (i < words.length) {
    const word = words[i];
    if (word === null) return { ok: false, problem: 'an option is not known until the command runs' };
    if (word === '--') return { ok: true, index: i + 1, options };
    if (!word.startsWith('-') || word === '-') break;
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const name = eq < 0 ? word : word.slice(0, eq);
      if (spec.longFlags?.includes(name) && eq < 0) {
        options.push({ name });
        i++;
      } else if (spec.longWithArg?.includes(name)) {
        if (eq >= 0) {
          options.push({ name, value: word.slice(eq + 1) });
          i++;
        } else {
          if (i + 1 >= words.length) return { ok: false, problem: `option ${name} is missing its value` };
          options.push({ name, value: words[i + 1] });
          i += 2;
        }
      } else if (spec.longOptionalArg?.includes(name)) {
        options.push(eq < 0 ? { name } : { name, value: word.slice(eq + 1) });
        i++;
      } else {
        return { ok: false, problem: `option ${name} is not one Keel knows` };
      }
      continue;
    }
    if (spec.numeric && /^-[0-9]+$/.test(word)) {
      options.push({ name: '-n', value: word.slice(1) });
      i++;
      continue;
    }
    let consumedNext = false;
    for (let k = 1; k < word.length; k++) {
      const letter = word[k];
      const name = `-${letter}`;
      if (spec.flags?.includes(letter)) {
        options.push({ name });
        continue;
      }
      if (spec.withArg?.includes(letter)) {
        const attached = word.slice(k + 1);
        if (attached !== '') options.push({ name, value: attached });
        else {
          if (i + 1 >= words.length) return { ok: false, problem: `option ${name} is missing its value` };
          options.push({ name, value: words[i + 1] });
          consumedNext = true;
        }
        break;
      }
      if (spec.optionalArg?.includes(letter)) {
        const attached = word.slice(k + 1);
        options.push(attached === '' ? { name } : { name, value: attached });
        break;
      }
      return { ok: false, problem: `option ${name} is not one Keel knows` };
    }
    i += consumedNext ? 2 : 1;
  }
  return { ok: true, index: i, options };
}
