import type { KeelPlugin } from '../../core/plugins';

/** A core's plugin manager, as far as registering goes. */
export interface PluginTarget {
  register(plugin: KeelPlugin): () => void;
}

/**
 * Plugins other extensions registered through Keel's API. They are kept here so every core
 * built (first use, or again after a settings change) starts with all of them; one that
 * arrives while a core exists is also registered into it at once.
 */
export class PluginRegistry {
  private readonly plugins: KeelPlugin[] = [];
  private target: PluginTarget | undefined;
  private readonly removers = new Map<KeelPlugin, () => void>();
  /** Called when a plugin that a built core holds from its start is removed: that core must be rebuilt. */
  onBuiltInRemoved: (() => void) | undefined;

  /** Adds a plugin; returns the function that removes it again. */
  register(plugin: KeelPlugin): () => void {
    if (typeof plugin !== 'object' || plugin === null || typeof plugin.name !== 'string' || plugin.name.trim() === '') {
      throw new TypeError('A Keel plugin must be an object with a non-empty "name".');
    }
    if (this.plugins.includes(plugin)) throw new Error(`Keel plugin "${plugin.name}" is already registered.`);
    this.plugins.push(plugin);
    if (this.target) this.removers.set(plugin, this.target.register(plugin));
    return () => this.remove(plugin);
  }

  list(): KeelPlugin[] {
    return [...this.plugins];
  }

  /**
   * A new core was built with `list()` already in it; later registrations go to its manager.
   * Removers from the previous core are dropped with it.
   */
  attach(target: PluginTarget | undefined, registeredAtBuild: readonly KeelPlugin[] = []): void {
    this.target = target;
    this.removers.clear();
    if (!target) return;
    // Built with these already inside; later ones (registered during the build) join now.
    for (const plugin of this.plugins) {
      if (!registeredAtBuild.includes(plugin)) this.removers.set(plugin, target.register(plugin));
    }
  }

  private remove(plugin: KeelPlugin): void {
    const index = this.plugins.indexOf(plugin);
    if (index < 0) return;
    this.plugins.splice(index, 1);
    const remover = this.removers.get(plugin);
    this.removers.delete(plugin);
    if (remover) remover();
    else if (this.target) this.onBuiltInRemoved?.();
  }
}
