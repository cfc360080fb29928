import { afterAll, afterEach, beforeAll } from 'vitest';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { createChatRig } from './chatHarness';
import type { ChatRig } from './chatHarness';

export interface ChatRigs {
  /** The scripted model server of the file, started once. */
  readonly server: ScriptedServer;
  /** A chat controller with its core and workspace, disposed after the test. */
  open(...args: Parameters<typeof createChatRig>): ChatRig;
}

/** Registers the hooks every controller suite needs: one scripted server per file, each test's rigs disposed after it. */
export function useChatRig(): ChatRigs {
  let server: ScriptedServer | undefined;
  const opened: ChatRig[] = [];
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterAll(() => server?.close());
  afterEach(async () => {
    for (const rig of opened.splice(0)) await rig.dispose();
  });
  return {
    get server() {
      if (!server) throw new Error('the scripted server starts in beforeAll');
      return server;
    },
    open(...args) {
      const rig = createChatRig(...args);
      opened.push(rig);
      return rig;
    },
  };
}
