import { describe, expect, it } from 'vitest';
import { KeelError } from '../../../src/core/errors';
import { endpointLayer } from '../../../src/core/config/endpointLayer';
import { keyEnvName, keyProvider, readKeelSettings, settingsLayer } from '../../../src/chat/settings/settingsLayer';
import type { SettingsSection } from '../../../src/chat/settings/settingsSection';
import { withReasoningChoice } from '../../../src/chat/settings/reasoningSettings';

interface Scopes {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
  defaultValue?: unknown;
}

/** A `keel` section as WorkspaceConfiguration.inspect reports it. */
function section(values: Record<string, Scopes>): SettingsSection {
  return {
    inspect: <T>(key: string) => {
      const v = values[key];
      return v === undefined ? undefined : ({ key: `keel.${key}`, ...v } as { key: string; globalValue?: T });
    },
  } as SettingsSection;
}

describe('readKeelSettings', () => {
  it('takes keel.sandbox from the user settings only: a workspace value only asks to narrow', () => {
    const fromWorkspace = readKeelSettings(section({ sandbox: { workspaceValue: 'off' } }));
    expect(fromWorkspace.settings.sandbox).toBeUndefined();
    expect(fromWorkspace.narrowing.map((n) => [n.setting, n.value])).toEqual([['sandbox', 'off']]);
    const fromUser = readKeelSettings(section({ sandbox: { globalValue: 'on', workspaceFolderValue: 'off' } }));
    expect(fromUser.settings.sandbox).toBe('on');
    expect(settingsLayer(fromUser.settings).layer.sandbox).toBe('on');
  });

  it('takes the most specific value the person set and ignores defaults', () => {
    const { settings, problems } = readKeelSettings(
      section({
        model: { globalValue: 'gpt-4.1', workspaceValue: ' qwen ' },
        maxTurns: { defaultValue: 50 },
        approvalMode: { globalValue: 'autoEdit' },
        autoCompact: { globalValue: false },
        'diff.reveal': { workspaceFolderValue: 'none', globalValue: 'focus' },
      }),
    );
    expect(settings).toEqual({ model: 'qwen', approvalMode: 'autoEdit', autoCompact: false, diffReveal: 'none' });
    expect(problems).toEqual([]);
  });

  it('takes the endpoint only from user settings, trusted workspace or not, and names the ignored value', () => {
    const values = { baseUrl: { globalValue: 'http://127.0.0.1:11434/v1', workspaceValue: 'https://evil.example/v1' } };
    const read = readKeelSettings(section(values));
    expect(read.settings.baseUrl).toBe('http://127.0.0.1:11434/v1');
    expect(read.problems).toHaveLength(1);
    expect(read.problems[0]).toMatch(/"keel\.baseUrl" is ignored: a workspace may not change where requests, and your key, are sent/);
    const onlyWorkspace = readKeelSettings(section({ baseUrl: { workspaceValue: 'https://evil.example/v1' } }));
    expect(onlyWorkspace.settings.baseUrl).toBeUndefined();
  });

  it('takes approval mode and allow rules only from user settings; a workspace mode is handed on to be judged', () => {
    const read = readKeelSettings(
      section({
        approvalMode: { globalValue: 'manual', workspaceValue: 'yolo' },
        'commands.allow': { globalValue: ['npm test'], workspaceFolderValue: ['touch'] },
        'commands.deny': { globalValue: ['rm'], workspaceValue: ['git push'] },
      }),
    );
    expect(read.settings).toEqual({ approvalMode: 'manual', commandsAllow: ['npm test'], commandsDeny: ['rm', 'git push'] });
    expect(read.narrowing).toEqual([{ origin: 'the workspace folder settings', setting: 'approvalMode', value: 'yolo' }]);
    expect(read.problems).toEqual([expect.stringMatching(/"keel\.commands\.allow" is ignored: a workspace may not let commands run without asking/)]);
  });

  it('takes keel.shellEnv.allow from the user settings only, into the config layer; a workspace value is named and ignored', () => {
    const read = readKeelSettings(section({ 'shellEnv.allow': { globalValue: ['GOFLAGS', 'MY_*', 'not a name'], workspaceValue: ['GITHUB_TOKEN'] } }));
    expect(read.settings).toEqual({ shellEnvAllow: ['GOFLAGS', 'MY_*'] });
    expect(settingsLayer(read.settings).layer).toMatchObject({ shellEnv: { allow: ['GOFLAGS', 'MY_*'] } });
    expect(read.problems).toEqual([
      expect.stringMatching(/"keel\.shellEnv\.allow" is ignored: a workspace may not pass more of your environment/),
      expect.stringMatching(/keel\.shellEnv\.allow: "not a name" is not a variable name/),
    ]);
  });

  it('takes keel.compactAt as a share of the window, and refuses one outside 0.3–0.95', () => {
    const ok = readKeelSettings(section({ compactAt: { globalValue: 0.7 } }));
    expect(ok.settings).toEqual({ compactAt: 0.7 });
    expect(settingsLayer(ok.settings).layer).toMatchObject({ compactAt: 0.7 });
    const bad = readKeelSettings(section({ compactAt: { globalValue: 1.5 } }));
    expect(bad.settings).toEqual({});
    expect(bad.problems).toEqual(['keel.compactAt has an invalid value and is ignored.']);
  });

  it('reports values of the wrong type instead of using them', () => {
    const { settings, problems } = readKeelSettings(section({ maxTurns: { globalValue: 0 }, approvalMode: { globalValue: 'always' }, model: { globalValue: 42 } }));
    expect(settings).toEqual({});
    expect(problems).toHaveLength(3);
  });
});

describe('settingsLayer / endpointLayer', () => {
  it('without a base URL passes model names through for OpenAI', () => {
    expect(settingsLayer({ model: 'gpt-4.1', maxTurns: 7 })).toEqual({ layer: { model: 'gpt-4.1', maxTurns: 7 }, provider: 'openai' });
  });

  it('with a base URL sends every model name to that endpoint, except aliases', () => {
    const { layer, provider } = settingsLayer(
      { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5-coder:7b', planModel: 'ollama/big', smallModel: 'fast' },
      { providers: ['ollama'], aliases: ['fast'] },
    );
    expect(provider).toBe('custom');
    expect(layer).toEqual({
      providers: { custom: { baseURL: 'http://127.0.0.1:11434/v1', api: 'chat' } },
      model: 'custom/qwen2.5-coder:7b',
      planModel: 'custom/ollama/big',
      smallModel: 'fast',
    });
    // A slash inside an id the endpoint knows is not a provider prefix.
    expect(endpointLayer({ baseURL: 'https://openrouter.ai/api/v1', model: 'meta-llama/llama-3' }).layer.model).toBe('custom/meta-llama/llama-3');
    // With a base URL every name is the endpoint's own: OpenRouter's `openai/…` ids stay on OpenRouter.
    expect(endpointLayer({ baseURL: 'http://x/v1', model: 'openai/gpt-4.1' }).layer.model).toBe('custom/openai/gpt-4.1');
  });

  it('with a base URL keeps a model picked from VS Code (vscode-lm/…) on VS Code', () => {
    const { layer } = settingsLayer({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'vscode-lm/copilot-gpt-x', planModel: 'big' }, { sources: ['vscode-lm'] });
    expect(layer.model).toBe('vscode-lm/copilot-gpt-x');
    expect(layer.planModel).toBe('custom/big');
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => settingsLayer({ baseUrl: 'file:///etc/passwd' })).toThrow(KeelError);
    expect(() => endpointLayer({ baseURL: 'not a url' })).toThrow(/not a valid http/);
  });

  it('knows whose key to ask for', () => {
    expect(keyProvider({ baseUrl: 'http://x' })).toBe('custom');
    expect(keyProvider({ model: 'deepseek/chat' }, ['deepseek'])).toBe('deepseek');
    expect(keyProvider({ model: 'meta/llama' }, ['deepseek'])).toBe('openai');
    expect(keyEnvName('openai')).toBe('OPENAI_API_KEY');
    expect(keyEnvName('my-lab.ai')).toBe('KEEL_MY_LAB_AI_API_KEY');
    expect(keyEnvName('x', 'X_KEY')).toBe('X_KEY');
  });
});

describe('keel.provider', () => {
  it('puts the model on the chosen preset and asks for that preset key', () => {
    const { settings, problems } = readKeelSettings(section({ provider: { globalValue: 'deepseek' }, model: { globalValue: 'deepseek-chat' } }));
    expect(problems).toEqual([]);
    expect(settingsLayer(settings)).toEqual({ layer: { model: 'deepseek/deepseek-chat' }, provider: 'deepseek' });
    expect(keyProvider(settings)).toBe('deepseek');
    expect(keyEnvName('deepseek')).toBe('DEEPSEEK_API_KEY');
  });

  it('ignores a workspace preset and rejects unknown names', () => {
    const fromWorkspace = readKeelSettings(section({ provider: { workspaceValue: 'openrouter' } }));
    expect(fromWorkspace.settings.provider).toBeUndefined();
    expect(fromWorkspace.problems.join(' ')).toContain('"keel.provider" is ignored');
    const unknown = readKeelSettings(section({ provider: { globalValue: 'nonesuch' } }));
    expect(unknown.problems).toEqual(['keel.provider has an invalid value and is ignored.']);
    expect(readKeelSettings(section({ provider: { globalValue: '' } })).settings).toEqual({});
  });

  it('treats a preset-prefixed model as that preset even without keel.provider', () => {
    expect(keyProvider({ model: 'openrouter/google/gemini-2.5-pro' })).toBe('openrouter');
  });
});

describe('keel.reasoning', () => {
  it('comes from the user settings only, into the core layer; bad entries are named and left out', () => {
    const read = readKeelSettings(
      section({ reasoning: { globalValue: { 'openai/gpt-5': 'high', o3: 'low', 'claude-sonnet-4-5': 'lots' }, workspaceValue: { 'openai/gpt-5': 'off' } } }),
    );
    expect(read.settings.reasoning).toEqual({ 'openai/gpt-5': 'high', o3: 'low' });
    expect(settingsLayer(read.settings).layer.reasoning).toEqual({ 'openai/gpt-5': 'high', o3: 'low' });
    expect(read.problems.join('\n')).toContain('claude-sonnet-4-5: lots');
    expect(readKeelSettings(section({ reasoning: { workspaceValue: { o3: 'high' } } })).settings.reasoning).toBeUndefined();
    expect(readKeelSettings(section({ reasoning: { globalValue: 'high' } })).problems).toHaveLength(1);
  });

  it('a choice from the picker replaces that model\'s entry; default removes it; the others stay', () => {
    const current = { 'openai/gpt-5': 'high', o3: 'low' };
    expect(withReasoningChoice(current, 'openai/gpt-5', 'minimal')).toEqual({ 'openai/gpt-5': 'minimal', o3: 'low' });
    expect(withReasoningChoice(current, 'openai/gpt-5', 'default')).toEqual({ o3: 'low' });
    expect(withReasoningChoice(undefined, 'g/gemini-2.5-flash', 'off')).toEqual({ 'g/gemini-2.5-flash': 'off' });
    expect(current).toEqual({ 'openai/gpt-5': 'high', o3: 'low' });
  });
});
