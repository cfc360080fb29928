import type { CoreAccess } from '../../chat/runtime/coreAccess';
import type { BuiltCore, CoreLoader } from '../../chat/runtime/coreLoader';
import type { PluginRegistry } from '../../chat/runtime/pluginRegistry';
import type { LmModelSource } from '../lm/lmModelSource';

/**
 * The window's core as the chat reaches it: VS Code's language models are checked for changes
 * first, and each newly built core gets the plugins registered so far (later ones go straight
 * into its manager) and owns the workspace watcher's invalidations.
 */
export function workspaceCore(loader: CoreLoader, languageModels: LmModelSource, plugins: PluginRegistry): CoreAccess {
  let attached: BuiltCore | undefined;
  const attach = (built: BuiltCore): void => {
    if (built === attached) return;
    attached = built;
    plugins.attach(built.ctx.plugins, built.plugins);
    // The window's file watcher invalidates this core's context on every change.
    built.ctx.llmsContext.markWatched();
  };
  return {
    get: async () => {
      await languageModels.checkForChanges();
      const built = await loader.get();
      attach(built);
      return built;
    },
    hold: async () => {
      await languageModels.checkForChanges();
      const held = await loader.hold();
      attach(held.built);
      return held;
    },
    peek: () => loader.peek(),
  };
}
