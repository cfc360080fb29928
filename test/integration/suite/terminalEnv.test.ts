/// <reference types="mocha" />
// Issue #20, reproduction 6 on the VS Code paths: the person's secrets are in the extension
// host's environment and in the shell of Keel's terminal (as a shell profile that exports
// them would put them there). `env` run by the bash tool in Keel's terminal, and as a child
// process when the terminal cannot run it, shows none of them; a name the person allows in
// their user settings passes.
import * as assert from 'node:assert';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { useConfiguredChat } from './support/chatFixture';
import { keelHomeForRun, setApprovalMode } from './support/keelSetup';
import { lastToolResult, request } from './support/modelRequests';
import { until } from './support/waiting';

keelHomeForRun();

const secrets: Record<string, string> = {
  OPENAI_API_KEY: 'marker-openai-0001',
  ANTHROPIC_API_KEY: 'marker-anthropic-0002',
  GITHUB_TOKEN: 'marker-github-0003',
  AWS_SECRET_ACCESS_KEY: 'marker-aws-0004',
  NPM_TOKEN: 'marker-npm-0005',
  FOO_SECRET: 'marker-foo-0006',
};

async function closeKeelTerminals(): Promise<void> {
  const keel = vscode.window.terminals.filter((t) => /^Keel( \d+)?$/.test(t.name));
  for (const t of keel) t.dispose();
  await until(() => !vscode.window.terminals.some((t) => keel.includes(t)), 'the Keel terminals closed');
}

describe("commands get no secrets from the environment (Keel's terminal and the child process)", function () {
  this.timeout(180_000);
  const chat = useConfiguredChat();
  const saved: Record<string, string | undefined> = {};

  before(async () => {
    for (const [name, value] of Object.entries(secrets)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    await vscode.workspace.getConfiguration('terminal.integrated').update('env.linux', secrets, vscode.ConfigurationTarget.Global);
    // Terminals opened before the setting would not have the secrets: the next command opens a new one.
    await closeKeelTerminals();
    await setApprovalMode('yolo');
    await chat.page.waitFor(() => chat.page.run?.approvalMode === 'yolo', 'approval mode yolo in the chat');
  });
  after(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await vscode.workspace.getConfiguration('terminal.integrated').update('env.linux', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('terminal.integrated').update('shellIntegration.enabled', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('keel').update('shellEnv.allow', undefined, vscode.ConfigurationTarget.Global);
    await closeKeelTerminals();
    await setApprovalMode(undefined);
  });

  function explain(err: unknown): never {
    const calls = chat.page.toolCalls().map((c) => `${c.name}:${c.state}:${c.result?.output ?? ''}`);
    throw new Error(`${String(err)}; tool calls ${calls.join(' | ')}; errors ${JSON.stringify(chat.page.errors)}`);
  }

  async function runEnv(): Promise<string> {
    chat.server.load({ turns: [reply.tool('bash', { command: 'env' }), reply.text('seen')] });
    await chat.page.sendAndSettle('print the environment', 90_000).catch(explain);
    return lastToolResult(request(chat.server, 1));
  }

  it("in Keel's terminal, whose shell holds the secrets, env shows none of them", async () => {
    const told = await runEnv();
    assert.match(told, /^Ran in the terminal "(Keel( \d+)?)"\./, told);
    assert.match(told, /\nPATH=/, told);
    assert.match(told, /\nKEEL=1\n/, told);
    for (const value of Object.values(secrets)) assert.ok(!told.includes(value), `${value} reached the command: ${told}`);
    // The check can fail: the terminal's shell itself has them.
    const name = /^Ran in the terminal "([^"]+)"/.exec(told)![1];
    const pid = await vscode.window.terminals.find((t) => t.name === name)!.processId;
    const shellEnv = readFileSync(`/proc/${pid}/environ`, 'utf8');
    assert.ok(shellEnv.includes(`GITHUB_TOKEN=${secrets.GITHUB_TOKEN}`), "the terminal's shell holds the token");
  });

  it('a name the person allows in their user settings passes, in the terminal', async () => {
    await vscode.workspace.getConfiguration('keel').update('shellEnv.allow', ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY'], vscode.ConfigurationTarget.Global);
    await until(() => vscode.workspace.getConfiguration('keel').get<string[]>('shellEnv.allow')?.length === 2, 'the setting reached the host');
    const told = await runEnv();
    assert.match(told, /^Ran in the terminal/, told);
    assert.ok(told.includes(`ANTHROPIC_API_KEY=${secrets.ANTHROPIC_API_KEY}`), told);
    assert.ok(!told.includes(secrets.OPENAI_API_KEY), "Keel's own key never passes");
    assert.ok(!told.includes(secrets.GITHUB_TOKEN), told);
    await vscode.workspace.getConfiguration('keel').update('shellEnv.allow', undefined, vscode.ConfigurationTarget.Global);
  });

  it('as a child process (no shell integration), env shows none of them either', async () => {
    await vscode.workspace.getConfiguration('terminal.integrated').update('shellIntegration.enabled', false, vscode.ConfigurationTarget.Global);
    const told = await runEnv();
    assert.match(told, /ran as a child process instead/, told);
    assert.match(told, /\nPATH=/, told);
    for (const value of Object.values(secrets)) assert.ok(!told.includes(value), `${value} reached the command: ${told}`);
  });
});
