import { describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, HUB_VARIABLES, isLoopback, loadConfig, loadDotEnv, readOnlyFrom } from './config.js';

const TOKENS = { HUB_CLIENT_TOKEN: 'client-secret', HUB_AGENT_TOKEN: 'agent-secret' };

/** The ConfigError message thrown by loadConfig(env), or a failure when it loads. */
function configError(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/[а-яё]/i); // a text for people: Russian
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError, the configuration loaded');
}

describe('loadConfig (SPEC 14)', () => {
  it('has the defaults of SPEC 14 for an empty environment', () => {
    expect(loadConfig({})).toEqual({
      dbPath: './data/hub.sqlite',
      databaseUrl: undefined,
      host: '127.0.0.1',
      port: 3000,
      clientToken: undefined,
      agentToken: undefined,
      logLevel: 'info',
      claimMaxWaitSeconds: 60,
      mcpReadOnly: false,
      eventsHeartbeatSeconds: 15,
      allowedHosts: [],
      allowedOrigins: [],
      catalogueAutoRefresh: true,
    });
  });

  it('treats blank values as unset', () => {
    expect(loadConfig({ HUB_DB_PATH: ' ', HUB_HOST: '', HUB_PORT: ' ', HUB_LOG_LEVEL: '', HUB_CLIENT_TOKEN: ' ', HUB_AGENT_TOKEN: '' })).toEqual(loadConfig({}));
  });

  it('reads every variable', () => {
    expect(
      loadConfig({
        ...TOKENS,
        HUB_DB_PATH: ':memory:',
        HUB_HOST: '0.0.0.0',
        HUB_PORT: '8080',
        HUB_LOG_LEVEL: 'debug',
        HUB_CLAIM_MAX_WAIT_SECONDS: '5',
        HUB_MCP_READ_ONLY: '1',
        HUB_EVENTS_HEARTBEAT_SECONDS: '2',
        HUB_ALLOWED_HOSTS: 'hub.example.com',
        HUB_ALLOWED_ORIGINS: 'https://hub.example.com',
        HUB_CATALOGUE_AUTO_REFRESH: 'off',
      }),
    ).toEqual({
      dbPath: ':memory:',
      databaseUrl: undefined,
      host: '0.0.0.0',
      port: 8080,
      clientToken: 'client-secret',
      agentToken: 'agent-secret',
      logLevel: 'debug',
      claimMaxWaitSeconds: 5,
      mcpReadOnly: true,
      eventsHeartbeatSeconds: 2,
      allowedHosts: ['hub.example.com'],
      allowedOrigins: ['https://hub.example.com'],
      catalogueAutoRefresh: false,
    });
  });

  it.each([
    ['0', 0],
    ['65535', 65535],
    [' 8080 ', 8080],
    ['08080', 8080],
  ])('HUB_PORT %s is accepted', (raw, port) => {
    expect(loadConfig({ HUB_PORT: raw }).port).toBe(port);
  });

  it.each([['debug'], ['info'], ['warn'], ['error']])('HUB_LOG_LEVEL %s is accepted', (level) => {
    expect(loadConfig({ HUB_LOG_LEVEL: level }).logLevel).toBe(level);
  });

  it.each([
    ['1', true],
    ['TRUE', true],
    [' yes ', true],
    ['on', true],
    ['0', false],
    ['no', false],
    ['', false],
  ])('HUB_MCP_READ_ONLY %j reads as %s', (raw, on) => {
    expect(loadConfig({ HUB_MCP_READ_ONLY: raw }).mcpReadOnly).toBe(on);
  });

  it.each([
    [undefined, true],
    ['', true],
    ['on', true],
    ['ДА', true],
    ['off', false],
    [' 0 ', false],
    ['нет', false],
  ])('HUB_CATALOGUE_AUTO_REFRESH %j reads as %s', (raw, on) => {
    expect(loadConfig({ HUB_CATALOGUE_AUTO_REFRESH: raw }).catalogueAutoRefresh).toBe(on);
  });

  it.each([['disabled'], ['выкл'], ['2']])('HUB_CATALOGUE_AUTO_REFRESH %j stops the start with one Russian line naming it', (raw) => {
    expect(() => loadConfig({ HUB_CATALOGUE_AUTO_REFRESH: raw })).toThrow(new ConfigError(`HUB_CATALOGUE_AUTO_REFRESH: непонятное значение «${raw}»; укажите on (хаб сам читает каталог Jira) или off`));
  });

  it.each([
    ['0', 0],
    ['60', 60],
  ])('HUB_CLAIM_MAX_WAIT_SECONDS %s is accepted', (raw, n) => {
    expect(loadConfig({ HUB_CLAIM_MAX_WAIT_SECONDS: raw }).claimMaxWaitSeconds).toBe(n);
  });

  it.each([
    ['HUB_PORT', 'abc'],
    ['HUB_PORT', '-1'],
    ['HUB_PORT', '65536'],
    ['HUB_PORT', '3000.5'],
    ['HUB_PORT', '0x10'],
    ['HUB_PORT', '1e3'],
    ['HUB_PORT', '0b1'],
    ['HUB_LOG_LEVEL', 'verbose'],
    ['HUB_LOG_LEVEL', 'trace'],
    ['HUB_CLAIM_MAX_WAIT_SECONDS', '61'],
    ['HUB_CLAIM_MAX_WAIT_SECONDS', '-1'],
    ['HUB_CLAIM_MAX_WAIT_SECONDS', 'ten'],
  ])('%s=%s → error naming the variable and the value', (name, raw) => {
    const message = configError({ [name]: raw });
    expect(message).toContain(name);
    expect(message).toContain(raw);
  });

  it.each([
    ['hub.example.com', ['hub.example.com']],
    [' Hub.Example.COM:8443 , 10.0.0.5:3000,', ['hub.example.com:8443', '10.0.0.5:3000']],
    ['hub.example.com:80, hub.example.com:443, hub.example.com', ['hub.example.com']],
    ['[FD00:0::5]:3000', ['[fd00::5]:3000']],
    ['', []],
  ])('HUB_ALLOWED_HOSTS %j reads as %j', (raw, hosts) => {
    expect(loadConfig({ HUB_ALLOWED_HOSTS: raw }).allowedHosts).toEqual(hosts);
  });

  it.each([['*'], ['https://hub.example.com'], ['hub.example.com/api'], ['hub_example.com'], ['hub.example.com:0'], ['hub.example.com:70000'], ['fd00::5'], ['[nope]:1'], ['user@hub']])(
    'HUB_ALLOWED_HOSTS=%s stops the start with a Russian message naming the entry',
    (raw) => {
      const message = configError({ HUB_ALLOWED_HOSTS: `localhost, ${raw}` });
      expect(message).toContain('HUB_ALLOWED_HOSTS');
      expect(message).toContain(`«${raw}»`);
      expect(message).toMatch(/[а-яё]/i);
    },
  );

  it.each([
    ['https://hub.example.com', ['https://hub.example.com']],
    ['HTTPS://Hub.Example.com:443/, http://localhost:5173', ['https://hub.example.com', 'http://localhost:5173']],
    ['http://[::1]:3000', ['http://[::1]:3000']],
  ])('HUB_ALLOWED_ORIGINS %j reads as %j', (raw, origins) => {
    expect(loadConfig({ HUB_ALLOWED_ORIGINS: raw }).allowedOrigins).toEqual(origins);
  });

  it.each([['*'], ['null'], ['hub.example.com'], ['ftp://hub.example.com'], ['https://hub.example.com/app'], ['https://hub.example.com?x=1'], ['https://u:p@hub.example.com']])(
    'HUB_ALLOWED_ORIGINS=%s stops the start with a Russian message naming the entry',
    (raw) => {
      const message = configError({ HUB_ALLOWED_ORIGINS: raw });
      expect(message).toContain('HUB_ALLOWED_ORIGINS');
      expect(message).toContain(`«${raw}»`);
      expect(message).toMatch(/[а-яё]/i);
    },
  );

  it.each([['127.0.0.1'], ['127.0.0.2'], ['::1'], ['localhost']])('serves without tokens on loopback %s', (host) => {
    const config = loadConfig({ HUB_HOST: host });
    expect(config.host).toBe(host);
    expect(config.clientToken).toBeUndefined();
    expect(config.agentToken).toBeUndefined();
  });

  it.each([['0.0.0.0'], ['::'], ['192.168.1.10'], ['hub.example.com']])('refuses %s without tokens, with a clear message', (host) => {
    const message = configError({ HUB_HOST: host });
    expect(message).toContain(host);
    expect(message).toContain('HUB_CLIENT_TOKEN');
    expect(message).toContain('HUB_AGENT_TOKEN');
    expect(message).toMatch(/loopback/);
  });

  it.each([['0.0.0.0'], ['192.168.1.10']])('serves on %s with both tokens', (host) => {
    expect(loadConfig({ ...TOKENS, HUB_HOST: host }).host).toBe(host);
  });

  it.each([
    ['only the client token', { HUB_CLIENT_TOKEN: 'c' }],
    ['only the agent token', { HUB_AGENT_TOKEN: 'a' }],
    ['only the client token, on 0.0.0.0', { HUB_CLIENT_TOKEN: 'c', HUB_HOST: '0.0.0.0' }],
  ])('%s → error asking for both', (_name, env) => {
    const message = configError(env);
    expect(message).toContain('HUB_CLIENT_TOKEN');
    expect(message).toContain('HUB_AGENT_TOKEN');
  });

  it.each([
    ['HUB_CLIENT_TOKEN', { HUB_CLIENT_TOKEN: 'клиент-токен', HUB_AGENT_TOKEN: 'agent' }],
    ['HUB_AGENT_TOKEN', { HUB_CLIENT_TOKEN: 'client', HUB_AGENT_TOKEN: 'agent\u00a0token' }],
    ['HUB_ASSISTANT_TOKEN', { HUB_CLIENT_TOKEN: 'client', HUB_AGENT_TOKEN: 'agent', HUB_ASSISTANT_TOKEN: 'pass\tword' }],
  ])('%s with a character no Authorization header carries (non-ASCII, a control) → error naming it, not a hub nobody can enter', (name, env) => {
    const message = configError(env);
    expect(message).toContain(name);
    expect(message).toMatch(/символ «.» \(U\+[0-9A-F]{4}\) нельзя передать в заголовке Authorization/);
  });

  it('a token of visible ASCII, inner spaces too, is taken as before', () => {
    expect(loadConfig({ HUB_CLIENT_TOKEN: 'a!b~c d', HUB_AGENT_TOKEN: 'Zz-09_./+=' }).clientToken).toBe('a!b~c d');
  });

  it.each([
    ['same token', 'same', 'same'],
    ['same token after trimming', ' same', 'same '],
  ])('%s twice → error', (_name, client, agent) => {
    expect(configError({ HUB_CLIENT_TOKEN: client, HUB_AGENT_TOKEN: agent })).toMatch(/должны различаться/);
  });

  it('reads HUB_ASSISTANT_TOKEN beside the other two; it is optional', () => {
    expect(loadConfig({ ...TOKENS, HUB_ASSISTANT_TOKEN: ' helper ' }).assistantToken).toBe('helper');
    expect(loadConfig({ ...TOKENS, HUB_HOST: '0.0.0.0' }).assistantToken).toBeUndefined();
  });

  it.each([
    ['only the assistant token', { HUB_ASSISTANT_TOKEN: 's' }],
    ['the assistant and the client token', { HUB_ASSISTANT_TOKEN: 's', HUB_CLIENT_TOKEN: 'c' }],
    ['the assistant token on 0.0.0.0', { HUB_ASSISTANT_TOKEN: 's', HUB_HOST: '0.0.0.0' }],
  ])('%s → error asking for the client and agent tokens', (_name, env) => {
    const message = configError(env);
    expect(message).toContain('HUB_CLIENT_TOKEN');
    expect(message).toContain('HUB_AGENT_TOKEN');
  });

  it.each([
    ['client', 'HUB_CLIENT_TOKEN'],
    ['agent', 'HUB_AGENT_TOKEN'],
  ])('the assistant token equal to the %s token → error naming both', (_name, other) => {
    const env = { HUB_CLIENT_TOKEN: 'client', HUB_AGENT_TOKEN: 'agent', HUB_ASSISTANT_TOKEN: other === 'HUB_CLIENT_TOKEN' ? 'client' : 'agent' };
    const message = configError(env);
    expect(message).toMatch(/должны различаться/);
    expect(message).toContain(other);
    expect(message).toContain('HUB_ASSISTANT_TOKEN');
  });

  it.each([['postgres://hub@localhost/hub'], ['postgresql://x'], ['POSTGRES://hub:pw@db:5432/hub']])('HUB_DATABASE_URL=%s selects PostgreSQL', (url) => {
    expect(loadConfig({ HUB_DATABASE_URL: url }).databaseUrl).toBe(url);
  });

  it.each([['mysql://hub@localhost/hub'], ['hub.sqlite'], ['sqlite:///data/hub.sqlite']])('HUB_DATABASE_URL=%s → error naming the expected form', (url) => {
    const message = configError({ HUB_DATABASE_URL: url });
    expect(message).toContain('HUB_DATABASE_URL');
    expect(message).toContain('postgres://');
  });
});

describe('isLoopback', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['localhost', true],
    ['LocalHost', true],
    ['0.0.0.0', false],
    ['::', false],
    ['10.0.0.1', false],
    ['128.0.0.1', false],
    ['example.com', false],
    ['127.example.com', false],
  ])('%s → %p', (host, loopback) => {
    expect(isLoopback(host)).toBe(loopback);
  });
});

describe('loadDotEnv', () => {
  it('no .env is nothing to load; a folder named .env is one Russian line, not Node’s TypeError', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jira-hub-env-'));
    try {
      expect(() => loadDotEnv(join(dir, '.env'))).not.toThrow();
      mkdirSync(join(dir, '.env'));
      expect(() => loadDotEnv(join(dir, '.env'))).toThrow(new ConfigError(`${join(dir, '.env')} не прочитать (это не файл с переменными); исправьте или переименуйте его`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a line Node would skip, with the variables after it, stops the start naming the line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jira-hub-env-'));
    const file = join(dir, '.env');
    try {
      writeFileSync(file, 'JIRA_HUB_TEST_DOTENV_A=1\nthis is garbage\nJIRA_HUB_TEST_DOTENV_B=2\n');
      expect(() => loadDotEnv(file)).toThrow(
        new ConfigError(`${file}, строка 2: «this is garbage» — не «ИМЯ=значение» и не комментарий (#): она и переменные после неё не были бы прочитаны; исправьте строку`),
      );
      // a comment in its place is fine (Node loads the file; what it loads, the CLI's tests see in a process)
      writeFileSync(file, 'JIRA_HUB_TEST_DOTENV_A=1\n# this is a comment\nJIRA_HUB_TEST_DOTENV_B=2\n');
      expect(() => loadDotEnv(file)).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('HUB_MCP_READ_ONLY: its help names every value the start takes', () => {
  it.each(['1', 'true', 'yes', 'on', 'да', '0', 'false', 'no', 'off', 'нет'])('%s', (value) => {
    expect(() => readOnlyFrom(value)).not.toThrow();
    expect(HUB_VARIABLES.HUB_MCP_READ_ONLY).toMatch(new RegExp(`(^|[ (,])${value}([ ,)]|$)`));
  });
});
