import { describe, expect, it, vi } from 'vitest';
import type { KeelPlugin } from '../../../src/core/plugins/pluginTypes';
import { PluginRegistry } from '../../../src/chat/runtime/pluginRegistry';

describe('PluginRegistry', () => {
  it('hands plugins to a core built later and registers late ones into the running core', () => {
    const registry = new PluginRegistry();
    const early: KeelPlugin = { name: 'early' };
    const late: KeelPlugin = { name: 'late' };
    const removeEarly = registry.register(early);
    expect(registry.list()).toEqual([early]);
    const unregister = vi.fn();
    const target = { register: vi.fn(() => unregister) };
    registry.attach(target, [early]);
    expect(target.register).not.toHaveBeenCalled();
    const removeLate = registry.register(late);
    expect(target.register).toHaveBeenCalledWith(late);
    removeLate();
    expect(unregister).toHaveBeenCalled();
    const rebuild = vi.fn();
    registry.onBuiltInRemoved = rebuild;
    removeEarly();
    expect(rebuild).toHaveBeenCalled();
    expect(registry.list()).toEqual([]);
    expect(() => registry.register({ name: ' ' })).toThrow(/non-empty/);
  });
});
