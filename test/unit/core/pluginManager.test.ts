import { describe, expect, it } from 'vitest';
import { PluginManager } from '../../../src/core/plugins/pluginManager';

function manager(timeoutMs = 1000) {
  const logs: string[] = [];
  const pm = new PluginManager({ log: (level, m) => logs.push(`${level}: ${m}`), timeoutMs });
  return { pm, logs };
}

describe('PluginManager.apply', () => {
  it('SeriesLast threads the memo through plugins in order', async () => {
    const { pm } = manager();
    pm.register({ name: 'a', systemPrompt: (p) => `${p}+a` });
    pm.register({ name: 'b', systemPrompt: (p) => `${p}+b` });
    pm.register({ name: 'c', systemPrompt: () => undefined });
    const out = await pm.apply({ hook: 'systemPrompt', memo: 'base', args: [{ mode: 'act' }], type: 'SeriesLast' });
    expect(out).toBe('base+a+b');
  });

  it('SeriesMerge concatenates lists and merges objects', async () => {
    const { pm } = manager();
    pm.register({ name: 'a', modelAlias: () => ({ fast: 'openai/gpt-4.1-mini' }) });
    pm.register({ name: 'b', modelAlias: () => ({ smart: 'openai/gpt-5' }) });
    const aliases = await pm.apply<Record<string, string>>({ hook: 'modelAlias', memo: {}, type: 'SeriesMerge' });
    expect(aliases).toEqual({ fast: 'openai/gpt-4.1-mini', smart: 'openai/gpt-5' });
  });

  it('Series runs every hook in order and returns the memo', async () => {
    const { pm } = manager();
    const order: string[] = [];
    pm.register({ name: 'a', initialized: async () => void order.push('a') });
    pm.register({ name: 'b', initialized: () => void order.push('b') });
    await pm.apply({ hook: 'initialized', memo: undefined, type: 'Series' });
    expect(order).toEqual(['a', 'b']);
  });

  it('Parallel collects every result', async () => {
    const { pm } = manager();
    pm.register({ name: 'a', destroy: async () => undefined });
    pm.register({ name: 'b', destroy: async () => undefined });
    const out = await pm.apply<unknown[]>({ hook: 'destroy', memo: [], type: 'Parallel' });
    expect(out).toHaveLength(2);
  });

  it('skips and reports a plugin that throws, keeping the others', async () => {
    const { pm, logs } = manager();
    pm.register({ name: 'broken', systemPrompt: () => { throw new Error('boom'); } });
    pm.register({ name: 'fine', systemPrompt: (p) => `${p}!` });
    const out = await pm.apply({ hook: 'systemPrompt', memo: 'x', args: [{ mode: 'act' }], type: 'SeriesLast' });
    expect(out).toBe('x!');
    expect(logs.join('\n')).toMatch(/Plugin "broken" failed in hook "systemPrompt".*boom/);
  });

  it('skips a plugin that never answers', async () => {
    const { pm, logs } = manager(30);
    pm.register({ name: 'stuck', userPrompt: () => new Promise<string>(() => {}) });
    const out = await pm.apply({ hook: 'userPrompt', memo: 'hello', args: [{ sessionId: 's' }], type: 'SeriesLast' });
    expect(out).toBe('hello');
    expect(logs.join('\n')).toMatch(/"stuck".*timed out/);
  });

  it('ignores wrongly shaped merge results with a warning', async () => {
    const { pm, logs } = manager();
    pm.register({ name: 'odd', tool: () => 'not a list' as never });
    const out = await pm.apply<unknown[]>({ hook: 'tool', memo: [], args: [{ mode: 'act' }], type: 'SeriesMerge' });
    expect(out).toEqual([]);
    expect(logs.join('\n')).toMatch(/"odd" returned a non-array/);
  });

  it('register returns a remover and rejects nameless plugins', async () => {
    const { pm } = manager();
    const remove = pm.register({ name: 'temp', systemPrompt: () => 'replaced' });
    remove();
    expect(await pm.apply({ hook: 'systemPrompt', memo: 'kept', args: [{ mode: 'act' }], type: 'SeriesLast' })).toBe('kept');
    expect(() => pm.register({ name: '' })).toThrow(/non-empty "name"/);
  });
});
