import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig, userConfigPath, workspaceConfigPath } from '../../../src/core/config/loadConfig';
import { readKeelSettings, settingsLayer } from '../../../src/chat/settings/settingsLayer';
import type { SettingsSection } from '../../../src/chat/settings/settingsSection';

let dir: string;
let home: string;
let root: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-cmd-config-'));
  home = join(dir, 'home');
  root = join(dir, 'ws');
  mkdirSync(home);
  mkdirSync(join(root, '.keel'), { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const write = (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value));

describe('commands in config files', () => {
  it('adds up allow and deny rules across layers', () => {
    write(userConfigPath(home), { commands: { allow: ['npm test'], deny: ['rm'] } });
    write(workspaceConfigPath(root), { commands: { deny: ['curl'] } });
    const { config } = resolveConfig({
      userFile: userConfigPath(home),
      workspaceFile: workspaceConfigPath(root),
      overrides: [{ commands: { allow: ['git status'], deny: ['git push'] } }],
    });
    expect(config.commands).toEqual({ allow: ['npm test', 'git status'], deny: ['rm', 'curl', 'git push'] });
  });

  it("ignores a workspace's allow rules, trusted or not, but keeps its deny rules", () => {
    write(workspaceConfigPath(root), { commands: { allow: ['curl'], deny: ['rm'] } });
    const { config, warnings } = resolveConfig({ workspaceFile: workspaceConfigPath(root) });
    expect(config.commands).toEqual({ allow: [], deny: ['rm'] });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`${workspaceConfigPath(root)}: "commands.allow": ["curl"] is ignored: a workspace may not let commands run without asking`);
  });

  it('names the file and the rule that cannot be read', () => {
    write(userConfigPath(home), { commands: { allow: ['npm test && rm -rf /'] } });
    expect(() => resolveConfig({ userFile: userConfigPath(home) })).toThrow(/config\.json is invalid: commands\.allow\.0: .*must be one command/);
    write(userConfigPath(home), { commands: { deny: ['  '] } });
    expect(() => resolveConfig({ userFile: userConfigPath(home) })).toThrow(/commands\.deny\.0: a command pattern cannot be empty/);
    write(userConfigPath(home), { commands: { allow: ['$(evil)'] } });
    expect(() => resolveConfig({ userFile: userConfigPath(home) })).toThrow(/plain words/);
  });
});

interface Scopes {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

function section(values: Record<string, Scopes>): SettingsSection {
  return {
    inspect: <T>(key: string) => {
      const v = values[key];
      return v === undefined ? undefined : ({ key: `keel.${key}`, ...v } as { key: string; globalValue?: T });
    },
  } as SettingsSection;
}

describe('keel.commands.allow and keel.commands.deny settings', () => {
  it('take the deny rules of every scope together', () => {
    const { settings, problems } = readKeelSettings(
      section({
        'commands.allow': { globalValue: ['npm test', 'make'] },
        'commands.deny': { globalValue: ['rm'], workspaceValue: ['git push'], workspaceFolderValue: ['rm', 'curl'] },
      }),
    );
    expect(problems).toEqual([]);
    expect(settings).toEqual({ commandsAllow: ['npm test', 'make'], commandsDeny: ['rm', 'git push', 'curl'] });
    expect(settingsLayer(settings).layer.commands).toEqual({ allow: ['npm test', 'make'], deny: ['rm', 'git push', 'curl'] });
  });

  it('use only the user allow rules, and name the workspace rules that were ignored', () => {
    const { settings, problems } = readKeelSettings(
      section({ 'commands.allow': { globalValue: ['npm test'], workspaceValue: ['curl'] }, 'commands.deny': { workspaceValue: ['rm'] } }),
    );
    expect(settings).toEqual({ commandsAllow: ['npm test'], commandsDeny: ['rm'] });
    expect(problems).toEqual([expect.stringContaining('"keel.commands.allow" is ignored: a workspace may not let commands run without asking')]);
  });

  it('leave out entries they cannot use, and say which', () => {
    const { settings, problems } = readKeelSettings(
      section({ 'commands.allow': { globalValue: ['npm test', 'a | b', 42] }, 'commands.deny': { globalValue: 'rm' } }),
    );
    expect(settings).toEqual({ commandsAllow: ['npm test'] });
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^keel\.commands\.allow: "a \| b" must be one command/);
    expect(problems[1]).toBe('keel.commands.allow: entries must be strings; that entry is ignored.');
    expect(problems[2]).toMatch(/^keel\.commands\.deny must be a list/);
  });

  it('leave the core layer alone when none are set', () => {
    const { settings } = readKeelSettings(section({ 'commands.allow': { globalValue: [] } }));
    expect(settingsLayer(settings).layer.commands).toBeUndefined();
  });
});
