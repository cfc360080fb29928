import type { HostBus } from '../../protocol/buses';
import type { Handler } from '../../protocol/busTypes';
import type { HostSide } from '../../protocol/catalogue';
import type { MethodOf } from '../../protocol/side';
import type { ChatController } from '../chatController';
import { listModels, slashCommands } from '../runtime/coreQueries';
import type { EditorServices } from './editorServices';

/** Host methods a feature of its own answers through a ViewExtension (MCP's prompts and request cards, see mcpView.ts). */
export type ExtensionMethod = 'mcp.prompt' | 'mcp.answer';

/**
 * The host's answers, one per request method of the catalogue (src/protocol/hostMethods.ts)
 * but those of the view extensions; parameters and results are the schemas' types, so a
 * method added to the catalogue without its handler here does not compile.
 */
export type HostHandlers = { [M in Exclude<MethodOf<HostSide>, ExtensionMethod>]: Handler<HostSide, M> };

/**
 * What each request does: the conversation in view (runs, reverts, the project, the mode),
 * the session and branch actions, or the editor services. The conversation in view is looked
 * up on every request: a new chat or a resumed one replaces it.
 */
export function hostHandlers(controller: ChatController, services: EditorServices): HostHandlers {
  const inView = () => controller.inView;
  return {
    'session.send': (params) => inView().send(params),
    'session.cancel': () => ({ cancelled: inView().cancel() }),
    'session.compact': () => inView().compact(),
    'session.new': () => controller.sessions.newSession(),
    'sessions.list': (params) => controller.sessions.list(params),
    'sessions.resume': ({ id }) => controller.sessions.resume(id),
    'sessions.rename': ({ id, title }) => controller.sessions.rename(id, title),
    'sessions.delete': ({ id }) => controller.sessions.delete(id),
    'sessions.export': ({ id, format }) => controller.sessions.export(id, format),
    'session.editAndResend': (params) => controller.branches.editAndResend(params),
    'session.switchBranch': (params) => controller.branches.switchBranch(params),
    'session.loadEarlier': () => controller.branches.loadEarlier(),
    'config.get': () => services.configGet(),
    'config.set': (params) => services.configSet(params),
    'models.list': async () => listModels((await inView().core.get()).ctx),
    'agent.use': async ({ name }) => ({ agent: (await inView().useAgent(name)) ?? null }),
    'setup.slashCommands': async () => ({ commands: await slashCommands((await inView().core.get()).ctx) }),
    'workspaceProject.select': ({ name }) => inView().selectWorkspaceProject(name),
    'files.search': async ({ query, limit }, { signal }) => ({ results: await services.searchFiles(query, limit ?? 50, signal) }),
    'file.open': async ({ path, range }) => ({ opened: await services.openFile(path, range) }),
    'mentions.fromUris': ({ uris }) => services.mentionsFromUris(uris),
    'link.open': async ({ url }) => ({ opened: await services.openLink(url) }),
    'code.insert': async ({ code }) => ({ inserted: await services.insertCode(code) }),
    'diff.open': async ({ approvalId }) => {
      const change = controller.approvalChange(approvalId);
      return { opened: change ? await services.openDiff(approvalId, change) : false };
    },
    'change.undo': (params) => inView().reverts.undo(params),
    'changes.restore': (params) => inView().reverts.restore(params),
    'command.undo': (params) => inView().reverts.undoCommand(params),
    'commandChange.diff': async ({ changeId }) => {
      const diff = await inView().reverts.commandDiff(changeId);
      return { opened: diff ? await services.openTextDiff(diff) : false };
    },
    'settings.open': async ({ query }) => ({ opened: await services.openSettings(query) }),
    'command.run': async ({ command, args }) => ({ ran: await services.runCommand(command, args) }),
    'mode.set': ({ mode }) => {
      inView().setMode(mode);
      return { mode };
    },
    'plan.open': async ({ planId }) => ({ opened: await inView().plans.open(planId) }),
    'plan.execute': ({ planId }) => inView().plans.execute(planId),
    'plan.refine': ({ planId, feedback }) => inView().plans.refine(planId, feedback),
    'plan.discard': ({ planId }) => inView().plans.discard(planId),
    'mcpApp.open': ({ toolCallId }) => inView().apps.open(toolCallId),
    'mcpApp.callTool': ({ toolCallId, name, arguments: args }) => inView().apps.callTool(toolCallId, name, args),
  };
}

/** Registers every handler of the table on the bus. */
export function registerHostHandlers(bus: HostBus, handlers: HostHandlers): void {
  const register = <M extends keyof HostHandlers>(method: M): void => {
    bus.handle(method, handlers[method]);
  };
  for (const method of Object.keys(handlers) as (keyof HostHandlers)[]) register(method);
}
