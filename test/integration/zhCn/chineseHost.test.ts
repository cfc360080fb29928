/// <reference types="mocha" />
// Keel's host in Simplified Chinese (run with `runIntegration.mjs --locale zh-cn --suites
// test/integration/zhCn`): VS Code's display language reaches the extension host, the command
// titles come from package.nls.zh-cn.json, what the chat tells the person about settings comes
// from l10n/bundle.l10n.zh-cn.json through the editor-free layers, and the model is told the
// language while its instructions stay English.
import * as assert from 'node:assert';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { useConfiguredChat } from '../suite/support/chatFixture';
import { keelHomeForRun, workspaceFolder } from '../suite/support/keelSetup';
import { request } from '../suite/support/modelRequests';

keelHomeForRun();

describe('Keel in Chinese, in the extension host', () => {
  before(() => {
    assert.strictEqual(vscode.env.language, 'zh-cn', 'this suite needs the zh-cn display language: run it with scripts/runIntegration.mjs --locale zh-cn');
  });
  const chat = useConfiguredChat();

  it('titles its commands in Chinese', () => {
    const keel = vscode.extensions.getExtension('keel-dev.keel');
    assert.ok(keel, 'Keel is installed');
    // VS Code hands extensions their manifest translated: a title is { value, original } then.
    type Title = string | { value: string; original: string };
    const commands = (keel.packageJSON as { contributes: { commands: Array<{ command: string; title: Title }> } }).contributes.commands;
    const title = (id: string) => commands.find((c) => c.command === id)?.title;
    assert.deepStrictEqual(title('keel.plan'), { value: '计划…', original: 'Plan…' });
    assert.deepStrictEqual(title('keel.newChat'), { value: '新建聊天', original: 'New Chat' });
  });

  it('tells the person in Chinese that a workspace may not move the endpoint', async function () {
    this.timeout(60_000);
    const dir = join(workspaceFolder(), '.vscode');
    const file = join(dir, 'settings.json');
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, JSON.stringify({ 'keel.baseUrl': 'http://127.0.0.1:9/v1' }, null, 2));
    try {
      await chat.page.waitFor(() => (chat.page.config?.problem ?? '').includes('已忽略“keel.baseUrl”：工作区不能更改请求（以及你的密钥）发往何处'), 'the notice about keel.baseUrl, in Chinese');
      assert.doesNotMatch(chat.page.config?.problem ?? '', /is ignored/);
    } finally {
      rmSync(file, { force: true });
    }
    await chat.page.waitFor(() => !(chat.page.config?.problem ?? '').includes('keel.baseUrl'), 'the notice to go with the setting');
  });

  it('tells the model the display language, with its instructions in English', async function () {
    this.timeout(60_000);
    chat.server.load({ turns: [reply.text('好的')] });
    await chat.page.sendAndSettle('你好');
    assert.strictEqual(chat.page.text(chat.page.last('assistant')), '好的');
    const messages = request(chat.server, 0).body.messages as Array<{ role: string; content: unknown }>;
    const system = String(messages.find((m) => m.role === 'system')?.content ?? '');
    assert.match(system, /^You are Keel, a coding agent/);
    assert.match(system, /Simplified Chinese \(zh-cn\)/);
  });
});
