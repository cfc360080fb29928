// The CLI speaks the person's language from LANG / LC_ALL in what people read (stderr notes,
// the result line, errors, --help), keeps stream-json English, and tells the model the language.
import { describe, expect, it } from 'vitest';
import { reply } from '../../fixtures/scriptedServer/replyBuilder.ts';
import { cliLanguage } from '../../../src/cli/cliLocale';
import { runCli, useCliRig } from './cliHarness';

const rig = useCliRig();
const ZH = { LANG: 'zh_CN.UTF-8' };

describe('cliLanguage', () => {
  it('reads LC_ALL, then LC_MESSAGES, then LANG, and maps Simplified Chinese locales to zh-cn', () => {
    expect(cliLanguage({ LANG: 'zh_CN.UTF-8' })).toBe('zh-cn');
    expect(cliLanguage({ LANG: 'zh_SG' })).toBe('zh-cn');
    expect(cliLanguage({ LC_ALL: 'C', LANG: 'zh_CN.UTF-8' })).toBe('en');
    expect(cliLanguage({ LC_MESSAGES: 'zh_CN.UTF-8', LANG: 'en_US.UTF-8' })).toBe('zh-cn');
    expect(cliLanguage({ LC_ALL: '', LANG: 'de_DE.UTF-8@euro' })).toBe('de-de');
    expect(cliLanguage({ LANG: 'zh_TW.UTF-8' })).toBe('zh-tw');
    expect(cliLanguage({})).toBe('en');
  });
});

describe('keel in Simplified Chinese', () => {
  it('narrates a text run in Chinese and names the display language to the model', async () => {
    rig.server.load({ turns: [reply.text('Hello.')] });
    const r = await runCli(rig.cli, ['run', '--cwd', rig.box.ws, '--model', 'scripted-model', '--base-url', rig.server.baseURL, 'Say hello'], {
      KEEL_HOME: rig.box.home,
      ...ZH,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Hello.');
    expect(r.stderr).toMatch(/— 完成，用了 1 轮，输入 \d+ \/ 输出 \d+ 个 token，价格未知；会话 /);
    const system = JSON.stringify(rig.server.requests[0]?.body.messages[0]);
    expect(system).toContain("The person's display language is Simplified Chinese (zh-cn)");
    // The prompt itself stays English.
    expect(system).toContain('You are Keel, a coding agent');
  });

  it('says what is wrong in Chinese in text mode, and in English when the output is stream-json', async () => {
    const args = ['run', '--cwd', rig.box.ws, '--provider', 'openai', '--model', 'gpt-4.1', 'hi'];
    const env = { KEEL_HOME: rig.box.home, OPENAI_API_KEY: '', ...ZH };
    const text = await runCli(rig.cli, args, env);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('提供方 "openai" 没有 API 密钥');
    const json = await runCli(rig.cli, [...args, '--output', 'stream-json'], env);
    expect(json.code).toBe(2);
    expect(json.stderr).toContain('No API key for provider "openai"');
  });

  it('says a session is missing, and that a restore has nothing to do, in Chinese', async () => {
    const missing = await runCli(rig.cli, ['restore', '--cwd', rig.box.ws, '--session', '20260101-000000-deadbeef'], { KEEL_HOME: rig.box.home, ...ZH });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('中没有会话“20260101-000000-deadbeef”');
    expect(missing.stderr).not.toContain('No session');
  });

  it('prints --help in Chinese, and in English when LC_ALL says so', async () => {
    expect((await runCli(rig.cli, ['--help'], ZH)).stdout).toMatch(/^用法：\n {2}keel run \[选项\] PROMPT/);
    expect((await runCli(rig.cli, ['--help'], { ...ZH, LC_ALL: 'en_US.UTF-8' })).stdout).toMatch(/^Usage:\n {2}keel run \[options\] PROMPT/);
  });
});
