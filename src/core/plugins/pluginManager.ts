import { errorMessage } from '../errors';
import type { HookName, HookType, KeelPlugin } from './pluginTypes';

type Log = (level: 'warn' | 'error', message: string) => void;

export interface ApplyOptions<T> {
  hook: HookName;
  /** Arguments after the memo (SeriesLast) or all arguments (other types). */
  args?: unknown[];
  memo: T;
  type: HookType;
}

/**
 * Runs plugin hooks. A plugin that throws or does not answer within the timeout is logged
 * and skipped for that call, so one broken plugin cannot break a conversation.
 */
export class PluginManager {
  private plugins: KeelPlugin[] = [];
  private readonly log: Log;
  private readonly timeoutMs: number;

  constructor(opts: { log: Log; timeoutMs?: number; plugins?: KeelPlugin[] }) {
    this.log = opts.log;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    for (const p of opts.plugins ?? []) this.register(p);
  }

  /** Adds a plugin; returns a function that removes it. */
  register(plugin: KeelPlugin): () => void {
    if (!plugin || typeof plugin.name !== 'string' || plugin.name === '') {
      throw new Error('A Keel plugin needs a non-empty "name".');
    }
    this.plugins.push(plugin);
    return () => {
      this.plugins = this.plugins.filter((p) => p !== plugin);
    };
  }

  names(): string[] {
    return this.plugins.map((p) => p.name);
  }

  async apply<T>(opts: ApplyOptions<T>): Promise<T> {
    const args = opts.args ?? [];
    const withHook = this.plugins.filter((p) => typeof p[opts.hook] === 'function');
    switch (opts.type) {
      case 'Series': {
        for (const p of withHook) await this.call(p, opts.hook, args);
        return opts.memo;
      }
      case 'SeriesLast': {
        let memo = opts.memo;
        for (const p of withHook) {
          const out = await this.call(p, opts.hook, [memo, ...args]);
          if (out.ok && out.value !== undefined) memo = out.value as T;
        }
        return memo;
      }
      case 'SeriesMerge': {
        let memo = opts.memo;
        for (const p of withHook) {
          const out = await this.call(p, opts.hook, args);
          if (out.ok && out.value !== undefined && out.value !== null) memo = merge(memo, out.value, p.name, this.log);
        }
        return memo;
      }
      case 'Parallel': {
        const results = await Promise.all(withHook.map((p) => this.call(p, opts.hook, args)));
        const values = results.filter((r) => r.ok).map((r) => r.value);
        return (Array.isArray(opts.memo) ? [...opts.memo, ...values] : opts.memo) as T;
      }
    }
  }

  private async call(plugin: KeelPlugin, hook: HookName, args: unknown[]): Promise<{ ok: boolean; value?: unknown }> {
    const fn = plugin[hook] as (...a: unknown[]) => unknown;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
      });
      const value = await Promise.race([Promise.resolve().then(() => fn.apply(plugin, args)), timeout]);
      return { ok: true, value };
    } catch (err) {
      this.log('error', `Plugin "${plugin.name}" failed in hook "${hook}" and was skipped: ${errorMessage(err)}`);
      return { ok: false };
    } finally {
      clearTimeout(timer);
    }
  }
}

function merge<T>(memo: T, value: unknown, plugin: string, log: Log): T {
  if (Array.isArray(memo)) {
    if (Array.isArray(value)) return [...memo, ...value] as T;
    log('warn', `Plugin "${plugin}" returned a non-array where a list was expected; ignored.`);
    return memo;
  }
  if (memo && typeof memo === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
    return { ...memo, ...value } as T;
  }
  log('warn', `Plugin "${plugin}" returned a value of the wrong shape; ignored.`);
  return memo;
}
