import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/core/config/configSchema';
import { parseConfigLayer } from '../../../src/core/config/loadConfig';
import { childEnv, childEnvBaseNames, looksSecret, noExtraEnv } from '../../../src/core/env/childEnv';
import { childEnvPolicy } from '../../../src/core/env/childEnvPolicy';
import { commandEnvSettings } from '../../../src/core/tools/process/shellEnv';
import { terminalCommandLine } from '../../../src/core/tools/process/terminalCommandLine';

const host = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/me',
  LANG: 'en_US.UTF-8',
  LC_ALL: 'C.UTF-8',
  GOPATH: '/home/me/go',
  JAVA_HOME: '/opt/jdk',
  OPENAI_API_KEY: 'sk-keel-own-key',
  DEEPSEEK_API_KEY: 'sk-deepseek',
  ANTHROPIC_API_KEY: 'sk-ant',
  GITHUB_TOKEN: 'ghp_x',
  AWS_SECRET_ACCESS_KEY: 'aws',
  AWS_REGION: 'eu-west-1',
  NPM_TOKEN: 'npm_x',
  FOO_SECRET: 'foo',
  NODE_AUTH_TOKEN: 'node-auth',
  NODE_ENV: 'development',
  MY_COPY: 'sk-keel-own-key',
  HTTPS_PROXY: 'http://user:pw@proxy:3128',
  HTTP_PROXY: 'http://proxy:3128',
  CDPATH: '/home/me',
  BASH_ENV: '/home/me/evil.sh',
  LD_PRELOAD: '/tmp/x.so',
  ELECTRON_RUN_AS_NODE: '1',
  BASH_FUNC_ls: '() { evil; }',
  SSH_AUTH_SOCK: '/run/user/1000/ssh-agent',
};

describe('the environment children get', () => {
  it('keeps the base list and the locale family, and nothing else of the host', () => {
    expect(childEnv(host, noExtraEnv)).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/me',
      LANG: 'en_US.UTF-8',
      LC_ALL: 'C.UTF-8',
      GOPATH: '/home/me/go',
      JAVA_HOME: '/opt/jdk',
      // A proxy without a password passes; one with a password is dropped.
      HTTP_PROXY: 'http://proxy:3128',
    });
  });

  it('passes what the person names, exactly or by prefix, but a prefix never passes a name that looks like a secret', () => {
    const env = childEnv(host, { allow: ['NODE_*', 'AWS_REGION', 'GITHUB_TOKEN', 'HTTPS_PROXY'], keyNames: [] });
    expect(env.NODE_ENV).toBe('development');
    expect(env.NODE_AUTH_TOKEN).toBeUndefined();
    expect(env.AWS_REGION).toBe('eu-west-1');
    expect(env.GITHUB_TOKEN).toBe('ghp_x');
    expect(env.HTTPS_PROXY).toBe('http://user:pw@proxy:3128');
    expect(env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
  });

  it("never passes Keel's own key, by its variable or by its value under another name, even when named", () => {
    const allow = ['OPENAI_API_KEY', 'DEEPSEEK_API_KEY', 'MY_COPY', 'ANTHROPIC_API_KEY'];
    const policy = childEnvPolicy({ ...defaultConfig, model: 'deepseek/deepseek-chat', shellEnv: { allow } });
    const env = childEnv(host, policy);
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(env.DEEPSEEK_API_KEY).toBeUndefined();
    expect(env.MY_COPY).toBeUndefined();
    // Another provider's key is the person's own secret: it passes because they named it.
    expect(env.ANTHROPIC_API_KEY).toBe('sk-ant');
    const otherProvider = childEnv(host, childEnvPolicy({ ...defaultConfig, model: 'anthropic/claude-sonnet-4-5', shellEnv: { allow } }));
    expect(otherProvider.ANTHROPIC_API_KEY).toBeUndefined();
    expect(otherProvider.DEEPSEEK_API_KEY).toBe(host.DEEPSEEK_API_KEY);
    const custom = childEnvPolicy({ ...defaultConfig, providers: { corp: { apiKeyEnv: 'CORP_LLM' } }, shellEnv: { allow: ['CORP_LLM'] } });
    expect(childEnv({ CORP_LLM: 'corp-key-123456' }, custom)).toEqual({});
  });

  it('never passes exported shell functions, whatever their name', () => {
    expect(childEnv({ PATH: '() { evil; }', BASH_FUNC_x: 'y' }, { allow: ['BASH_FUNC_x'], keyNames: [] })).toEqual({});
  });

  it('the built-in list holds no name that looks like a secret', () => {
    expect(childEnvBaseNames.length).toBeGreaterThan(50);
    for (const name of childEnvBaseNames) expect(looksSecret(name), name).toBe(false);
  });

  it('config: shellEnv.allow takes names and prefixes, and refuses what is not a variable name', () => {
    expect(parseConfigLayer({ shellEnv: { allow: ['GOFLAGS', 'MY_*'] } }, 'x').shellEnv?.allow).toEqual(['GOFLAGS', 'MY_*']);
    expect(() => parseConfigLayer({ shellEnv: { allow: ['A B'] } }, 'x')).toThrow(/not a variable name/);
    expect(() => parseConfigLayer({ shellEnv: { allow: ['*'] } }, 'x')).toThrow(/not a variable name|almost every/);
  });
});

describe('the line Keel types into its terminal', () => {
  it('runs the command with only the allowed variables of the terminal shell and the command settings', () => {
    const line = terminalCommandLine('/bin/bash', 'env', '/ws', '/ws', [], { names: ['PATH', 'HOME', 'UNSET_HERE'], set: commandEnvSettings });
    expect(line).toBe(
      `/usr/bin/env -i \${PATH+"PATH=$PATH"} \${HOME+"HOME=$HOME"} \${UNSET_HERE+"UNSET_HERE=$UNSET_HERE"} 'KEEL=1' 'GIT_PAGER=cat' 'PAGER=cat' 'GIT_TERMINAL_PROMPT=0' /bin/bash -c 'env'`,
    );
    // Typed into a shell that holds the person's tokens (as a shell profile would export them):
    const out = execFileSync('/bin/bash', ['-c', line], {
      env: { PATH: process.env.PATH, HOME: '/home/with space', GITHUB_TOKEN: 'ghp_marker', OPENAI_API_KEY: 'sk-marker' },
      encoding: 'utf8',
    });
    const names = out.trim().split('\n').map((l) => l.slice(0, l.indexOf('=')));
    expect(names.filter((n) => !['PWD', 'SHLVL', '_'].includes(n)).sort()).toEqual(['GIT_PAGER', 'GIT_TERMINAL_PROMPT', 'HOME', 'KEEL', 'PAGER', 'PATH']);
    expect(out).toContain('HOME=/home/with space\n');
    expect(out).not.toMatch(/marker/);
  });
});
