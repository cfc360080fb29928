import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../errors';
import { builtinRules } from './builtinRules';
import { compileRule, formatIssues } from './ruleCompiler';
import { rulesFileSchema } from './ruleSchema';
import type { CompiledRule, RuleSource } from './ruleTypes';

export function workspaceRulesPath(folder: string): string {
  return join(folder, '.keel', 'rules.json');
}

export function userRulesPath(home: string): string {
  return join(home, 'rules.json');
}

export interface RulesFile {
  path: string;
  source: Exclude<RuleSource, 'builtin'>;
}

export interface LoadedRules {
  rules: CompiledRule[];
  /** One line per broken file or rule, naming it; the rest loaded. */
  problems: string[];
}

interface FileRules {
  rules: CompiledRule[];
  disable: string[];
  problems: string[];
}

/** What a file held when it was last read, so an unchanged file is not parsed again. */
interface CacheEntry {
  mtimeMs: number;
  size: number;
  loaded: FileRules;
}

/**
 * Reads the rules files (a missing file has no rules), compiles them, and adds the built-in
 * rules that no file disabled. Cached per file by modification time and size.
 */
export class RulesLoader {
  private readonly cache = new Map<string, CacheEntry>();

  load(files: readonly RulesFile[]): LoadedRules {
    const rules: CompiledRule[] = [];
    const problems: string[] = [];
    const disabled = new Set<string>();
    let order = 0;
    for (const file of files) {
      const loaded = this.read(file);
      for (const r of loaded.rules) rules.push({ ...r, order: order++ });
      for (const id of loaded.disable) disabled.add(id);
      problems.push(...loaded.problems);
    }
    for (const r of builtinRules()) rules.push({ ...r, order: order++ });
    const ids = new Set<string>();
    const kept: CompiledRule[] = [];
    for (const r of rules) {
      if (disabled.has(r.id)) continue;
      if (ids.has(r.id)) {
        problems.push(`${r.origin}: rule "${r.id}" has the id of an earlier rule; this one is ignored.`);
        continue;
      }
      ids.add(r.id);
      kept.push(r);
    }
    return { rules: kept, problems };
  }

  private read(file: RulesFile): FileRules {
    let stat: { mtimeMs: number; size: number };
    try {
      stat = statSync(file.path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return { rules: [], disable: [], problems: [] };
      return { rules: [], disable: [], problems: [`Cannot read rules file ${file.path}: ${errorMessage(err)}`] };
    }
    const cached = this.cache.get(file.path);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.loaded;
    const loaded = parseRulesFile(readText(file.path), file);
    this.cache.set(file.path, { mtimeMs: stat.mtimeMs, size: stat.size, loaded });
    return loaded;
  }
}

function readText(path: string): string | Error {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/** One file's rules; each broken rule is a problem and the others load. */
export function parseRulesFile(text: string | Error, file: RulesFile): FileRules {
  const empty = (problem: string): FileRules => ({ rules: [], disable: [], problems: [problem] });
  if (text instanceof Error) return empty(`Cannot read rules file ${file.path}: ${text.message}`);
  if (text.trim() === '') return { rules: [], disable: [], problems: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return empty(`Rules file ${file.path} is not valid JSON (${errorMessage(err)}); none of its rules apply.`);
  }
  const parsed = rulesFileSchema.safeParse(raw);
  if (!parsed.success) return empty(`Rules file ${file.path} is invalid: ${formatIssues(parsed.error.issues)}; none of its rules apply.`);
  const out: FileRules = { rules: [], disable: parsed.data.disable ?? [], problems: [] };
  (parsed.data.rules ?? []).forEach((raw, index) => {
    const compiled = compileRule(raw, file.source, file.path, index, index);
    if (!compiled.ok) {
      out.problems.push(`${compiled.problem}. This rule is ignored; the others apply.`);
      return;
    }
    const enabled = (raw as { enabled?: boolean }).enabled !== false;
    if (enabled) out.rules.push(compiled.rule);
  });
  return out;
}
