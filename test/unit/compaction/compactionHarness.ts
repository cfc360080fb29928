import type { ConfigLayer } from '../../../src/core/config/configSchema';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';

/** The config layer projectBench uses: the scripted server as provider `local`. */
export function sessionModelLayer(server: ScriptedServer, contextWindow?: number): ConfigLayer {
  return {
    model: 'local/scripted',
    providers: { local: contextWindow ? { baseURL: server.baseURL, contextWindow } : { baseURL: server.baseURL } },
  };
}
