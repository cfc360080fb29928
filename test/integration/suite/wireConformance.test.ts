/// <reference types="mocha" />
// The wire conformance suite (test/conformance/wireConformance.ts) for VS Code's language
// models: Keel's vscode.lm adapter (LmLanguageModel) around the chat model that
// test/fixtures/extensions/keel-sample-models provides, which forwards every request to the
// scripted server over HTTP. The HTTP sources run the same cases in the unit tier.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { LmLanguageModel } from '../../../src/vscode/lm/lmLanguageModel';
import { startScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import type { ScriptedServer } from '../../fixtures/scriptedServer/scriptedServer.ts';
import { wireCases } from '../../conformance/wireConformance';
import type { ModelSource } from '../../conformance/wireConformance';
import { activateKeel, keelHomeForRun } from './support/keelSetup';

keelHomeForRun();

const SAMPLE_ID = 'keel-test.keel-sample-models';

interface SampleModels {
  vendor: string;
  setEndpoint(url: string | undefined): void;
}

/** VS Code lists a provider's models in the background after it reports a change. */
async function listed(vendor: string, present: boolean): Promise<vscode.LanguageModelChat | undefined> {
  for (let i = 0; i < 400; i++) {
    const [model] = await vscode.lm.selectChatModels({ vendor });
    if (present === (model !== undefined)) return model;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`VS Code never ${present ? 'listed' : 'withdrew'} the model of ${vendor}`);
}

describe('wire conformance: vscode.lm (Keel’s adapter around another extension’s model)', () => {
  let sample: SampleModels;
  let server: ScriptedServer;
  let chat: vscode.LanguageModelChat;

  before(async () => {
    await activateKeel();
    const extension = vscode.extensions.getExtension<SampleModels>(SAMPLE_ID);
    assert.ok(extension, `${SAMPLE_ID} is installed next to Keel`);
    sample = await extension.activate();
    server = await startScriptedServer();
    sample.setEndpoint(server.baseURL);
    const model = await listed(sample.vendor, true);
    assert.ok(model);
    chat = model;
  });

  after(async () => {
    sample?.setEndpoint(undefined);
    // Later suites expect no VS Code model.
    if (sample) await listed(sample.vendor, false);
    await server?.close();
  });

  const source: ModelSource = {
    name: 'vscode.lm',
    traits: { reasoning: false, exactUsage: false, httpStatus: false, rawArguments: false },
    model: () => new LmLanguageModel(chat, () => undefined),
  };
  for (const c of wireCases(source)) it(c.name, () => c.run(server));
});
