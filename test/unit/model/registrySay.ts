// One answer through a model as a registry resolves it, over real HTTP to the scripted server:
// the provider tests check what that request carried (its path, its key header).
import { streamText } from 'ai';
import { afterAll, beforeAll } from 'vitest';
import type { ModelRegistry } from '../../../src/core/model/modelRegistry';
import { reply } from '../../fixtures/scriptedServer/replyBuilder';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer';

/** Starts a scripted server for the file's tests; `say` asks the registry's model and returns its answer, `answer`. */
export function registrySay(answer: string): { server: () => ScriptedServer; say: (reg: ModelRegistry) => Promise<string> } {
  let started: ScriptedServer | undefined;
  beforeAll(async () => {
    started = await startScriptedServer();
  });
  afterAll(() => started?.close());
  const server = () => {
    if (!started) throw new Error('the scripted server is not started yet');
    return started;
  };
  const say = async (reg: ModelRegistry) => {
    server().load({ turns: [reply.text(answer)] });
    const result = streamText({ model: reg.resolve('model').model, prompt: 'hello', maxRetries: 0 });
    return await result.text;
  };
  return { server, say };
}
