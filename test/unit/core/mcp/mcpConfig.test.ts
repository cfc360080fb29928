import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonc, readMcpFile } from '../../../../src/core/mcp/mcpConfigFile';
import { parseMcpConfig } from '../../../../src/core/mcp/mcpConfig';
import { describeServer, serverEnv, serverFingerprint } from '../../../../src/core/mcp/mcpEnv';
import { maxToolNameLength, mcpPromptCommand, mcpToolName } from '../../../../src/core/mcp/mcpNames';

const vars = { workspaceFolder: '/ws/app', env: { TOKEN: 's3cret', HOME: '/home/me' } };
const parse = (raw: unknown) => parseMcpConfig(raw, 'workspace', vars, '.vscode/mcp.json');
const parseUser = (raw: unknown) => parseMcpConfig(raw, 'user', vars, 'keel.mcpServers (user settings)');

describe('parseMcpConfig', () => {
  it('reads stdio and http servers in VS Code mcp.json shape and expands variables', () => {
    const { servers, problems } = parseUser({
      inputs: [],
      servers: {
        files: { type: 'stdio', command: 'node', args: ['${workspaceFolder}/server.js', '--token=${env:TOKEN}'], env: { LEVEL: 'debug', N: 3 }, cwd: '${workspaceFolder}/tools' },
        remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${env:TOKEN}' } },
        inferred: { command: 'uvx', args: ['thing'] },
      },
    });
    expect(problems).toEqual([]);
    expect(servers).toEqual([
      { name: 'files', origin: 'user', type: 'stdio', command: 'node', args: ['/ws/app/server.js', '--token=s3cret'], env: { LEVEL: 'debug', N: '3' }, cwd: '/ws/app/tools' },
      { name: 'remote', origin: 'user', type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer s3cret' } },
      { name: 'inferred', origin: 'user', type: 'stdio', command: 'uvx', args: ['thing'], env: {} },
    ]);
  });

  it("never expands the person's environment in a workspace's config, and says why (issue #11)", () => {
    const { servers, problems } = parse({
      servers: {
        remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${env:TOKEN}' } },
        local: { type: 'stdio', command: 'node', env: { GITHUB_TOKEN: '${env:TOKEN}' } },
        plain: { type: 'stdio', command: 'node', args: ['${workspaceFolder}/s.js'] },
      },
    });
    expect(servers.map((s) => s.name)).toEqual(['plain']);
    expect(JSON.stringify(servers)).not.toContain('s3cret');
    expect(problems.map((p) => p.server)).toEqual(['remote', 'local']);
    expect(problems[0]!.message).toContain('"headers.Authorization": ${env:TOKEN} is not expanded from a workspace\'s config');
    expect(problems[1]!.message).toContain('"env.GITHUB_TOKEN"');
    expect(problems[1]!.message).toContain('keel.mcpServers');
  });

  it('an unset ${env:NAME} expands to nothing', () => {
    const { servers } = parseUser({ servers: { a: { type: 'stdio', command: 'x', args: ['${env:NOPE}'] } } });
    expect(servers[0]).toMatchObject({ args: [''] });
  });

  it('names the server and the field of a bad entry and keeps the good ones', () => {
    const { servers, problems } = parse({
      servers: {
        good: { type: 'stdio', command: 'node' },
        noCommand: { type: 'stdio', args: ['x'] },
        badArgs: { type: 'stdio', command: 'node', args: 'x y' },
        badUrl: { type: 'http', url: 'not a url' },
        ftp: { type: 'http', url: 'ftp://host/x' },
        badType: { type: 'websocket', url: 'ws://x' },
        typo: { type: 'stdio', command: 'node', argz: [] },
        prompt: { type: 'stdio', command: 'node', env: { KEY: '${input:key}' } },
        unknownVar: { type: 'stdio', command: '${workspaceRoot}/x' },
        nothing: {},
        'bad name': { command: 'x' },
      },
    });
    expect(servers.map((s) => s.name)).toEqual(['good']);
    const byServer = Object.fromEntries(problems.map((p) => [p.server, p.message]));
    expect(byServer.noCommand).toMatch(/MCP server "noCommand": "command" must be a string/);
    expect(byServer.badArgs).toMatch(/"args" must be an array of strings/);
    expect(byServer.badUrl).toMatch(/"url" is not a valid URL/);
    expect(byServer.ftp).toMatch(/must be http or https/);
    expect(byServer.badType).toMatch(/"type" must be "stdio", "http" or "sse" \(got "websocket"\)/);
    expect(byServer.typo).toMatch(/unknown field "argz"/);
    expect(byServer.prompt).toMatch(/"env.KEY": \$\{input:key\} prompts are not supported/);
    expect(byServer.unknownVar).toMatch(/"command": unknown variable \$\{workspaceRoot\}/);
    expect(byServer.nothing).toMatch(/needs "command" .* or "url"/);
    expect(byServer['bad name']).toMatch(/letters, digits/);
    for (const p of problems) expect(p.message).toContain('.vscode/mcp.json');
  });

  it('rejects a file that is not an object with servers', () => {
    expect(parse([1]).problems[0]!.message).toMatch(/expected an object with "servers", got an array/);
    expect(parse({ servers: [] }).problems[0]!.message).toMatch(/"servers" must be an object/);
    expect(parse({}).servers).toEqual([]);
  });
});

describe('server env', () => {
  it('passes PATH-like basics and the configured env, never the rest of the host env', () => {
    const env = serverEnv({ LEVEL: 'debug' }, { PATH: '/usr/bin', HOME: '/home/me', OPENAI_API_KEY: 'sk-x', KEEL_HOME: '/k', AWS_SECRET_ACCESS_KEY: 'a', BASH_FUNC_x: '() { evil; }' });
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/home/me', LEVEL: 'debug' });
  });

  it('a configured variable wins over the host basic', () => {
    expect(serverEnv({ PATH: '/opt/bin' }, { PATH: '/usr/bin' }).PATH).toBe('/opt/bin');
  });
});

describe('server fingerprint', () => {
  const base = parse({ servers: { a: { command: 'node', args: ['s.js'], env: { A: '1' } } } }).servers[0]!;
  const variant = (entry: object) => parse({ servers: { a: entry } }).servers[0]!;
  it('changes when the command, args, env or cwd change, not with key order', () => {
    const fp = serverFingerprint(base);
    expect(serverFingerprint(variant({ command: 'node', args: ['s.js'], env: { A: '1' } }))).toBe(fp);
    expect(serverFingerprint(variant({ command: 'bash', args: ['s.js'], env: { A: '1' } }))).not.toBe(fp);
    expect(serverFingerprint(variant({ command: 'node', args: ['t.js'], env: { A: '1' } }))).not.toBe(fp);
    expect(serverFingerprint(variant({ command: 'node', args: ['s.js'], env: { A: '2' } }))).not.toBe(fp);
    expect(serverFingerprint(variant({ command: 'node', args: ['s.js'], env: { A: '1' }, cwd: '/tmp' }))).not.toBe(fp);
    const two = (env: object) => serverFingerprint(variant({ command: 'node', env }));
    expect(two({ A: '1', B: '2' })).toBe(two({ B: '2', A: '1' }));
  });

  it('changes with the url of an http server', () => {
    expect(serverFingerprint(variant({ url: 'http://a/mcp' }))).not.toBe(serverFingerprint(variant({ url: 'http://b/mcp' })));
  });

  it('describes what will run, with env keys but not their values', () => {
    const text = describeServer(variant({ command: 'node', args: ['my server.js'], env: { TOKEN: 'hidden-value' } })).join('\n');
    expect(text).toContain('command: node "my server.js"');
    expect(text).toContain('env: TOKEN');
    expect(text).not.toContain('hidden-value');
  });
});

describe('MCP names', () => {
  it('is mcp__server__tool with characters providers refuse replaced', () => {
    expect(mcpToolName('everything', 'get-sum')).toBe('mcp__everything__get-sum');
    expect(mcpToolName('my.server', 'read file/v2')).toBe('mcp__my_server__read_file_v2');
    for (const n of [mcpToolName('s', 'ok'), mcpToolName('my.server', 'a b')]) expect(n).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it('keeps long names within 64 characters and distinct', () => {
    const a = mcpToolName('a-rather-long-server-name', 'and_an_even_longer_tool_name_that_goes_on_number_one');
    const b = mcpToolName('a-rather-long-server-name', 'and_an_even_longer_tool_name_that_goes_on_number_two');
    expect(a.length).toBeLessThanOrEqual(maxToolNameLength);
    expect(b.length).toBeLessThanOrEqual(maxToolNameLength);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^mcp__a-rather-long-server-name__/);
  });

  it('prompt commands are mcp.<server>.<prompt>', () => {
    expect(mcpPromptCommand('everything', 'simple-prompt')).toBe('mcp.everything.simple-prompt');
  });
});

describe('mcp.json as JSONC', () => {
  it('allows comments and trailing commas, and keeps them inside strings', () => {
    const text = `{
      // the team's servers
      "servers": {
        "a": { "command": "node", "args": ["http://x//y", "/* not a comment */", "a,}"], }, /* done */
      },
    }`;
    expect(parseJsonc(text)).toEqual({ servers: { a: { command: 'node', args: ['http://x//y', '/* not a comment */', 'a,}'] } } });
  });

  it('a broken file is one problem naming it; a missing file is no servers', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-mcpjson-'));
    const file = join(dir, 'mcp.json');
    writeFileSync(file, '{ "servers": { "a": ');
    const vars = { workspaceFolder: dir, env: {} };
    expect(readMcpFile(file, 'workspace', vars).problems[0]!.message).toMatch(/mcp.json: not valid JSON/);
    expect(readMcpFile(join(dir, 'none.json'), 'workspace', vars)).toEqual({ servers: [], problems: [] });
    rmSync(dir, { recursive: true, force: true });
  });
});
