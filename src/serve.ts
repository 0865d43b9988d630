/**
 * `jira-hub serve`: the hub on HUB_HOST:HUB_PORT and the lines it prints for people (Russian; the log
 * stays English). A port it cannot have is one line, with everything it opened closed (decision 0108).
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { createApp } from './app.js';
import { ConfigError, type HubConfig, loadConfig, type OptionNames } from './common/index.js';
import { DASHBOARD_ROOT } from './dashboard.js';
import { databaseName } from './database/index.js';
import { mcpModeText } from './mcp/index.js';

/** Why the hub cannot listen, by Node's code: `at` is host:port, as the banner writes it. */
const LISTEN_REFUSALS: Record<string, (at: string, host: string) => string> = {
  EADDRINUSE: (at) => `адрес ${at} уже занят другой программой (может быть, хаб уже запущен); укажите другой порт: --port или HUB_PORT`,
  EACCES: (at) => `слушать ${at} нет прав (порты ниже 1024 обычно только для администратора); укажите другой порт: --port или HUB_PORT`,
  EADDRNOTAVAIL: (_at, host) => `адреса ${host} у этой машины нет; укажите её адрес: --host или HUB_HOST`,
  ENOTFOUND: (_at, host) => `имя ${host} не найдено; укажите адрес этой машины: --host или HUB_HOST`,
  // e.g. a link-local IPv6 address without its interface (fe80::1 rather than fe80::1%eth0)
  EINVAL: (_at, host) => `на адресе ${host} слушать нельзя (адрес IPv6 fe80::… нужен с именем интерфейса, например fe80::1%eth0); укажите адрес этой машины: --host или HUB_HOST`,
};

/**
 * `server` listening on HUB_HOST:HUB_PORT; a port that is taken or not allowed, or a host this machine
 * does not have, is a ConfigError (one line, exit code 2) instead of Node's English error.
 */
async function listenOn(server: Server, config: HubConfig, host: string): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    const refusal = LISTEN_REFUSALS[(err as NodeJS.ErrnoException).code ?? ''];
    throw refusal ? new ConfigError(refusal(`${host}:${config.port}`, config.host)) : err;
  }
}

/**
 * Listens as Nest's `app.listen` would, but a failure is ours to tell: Nest logs Node's English error
 * first. A refused port closes the app (its database and connections) before the refusal is thrown.
 */
async function listen(app: NestExpressApplication, config: HubConfig, host: string): Promise<void> {
  await listenOn(app.getHttpServer(), config, host).catch(async (err: unknown) => {
    await app.close().catch(() => undefined);
    throw err;
  });
}

/**
 * Whether the hub may listen on HUB_HOST:HUB_PORT, asked before it opens (or makes) its database: a
 * refusal then leaves nothing made. The port is bound and let go at once; `listen` still tells one taken
 * in between. Port 0 (any free port) needs no asking.
 */
async function assertCanListen(config: HubConfig, host: string): Promise<void> {
  if (config.port === 0) return;
  const probe = createServer();
  await listenOn(probe, config, host);
  await new Promise((resolve) => probe.close(resolve));
}

/** The start banner: where the hub listens, its dashboard, database, API document, access and MCP. */
function banner(config: HubConfig, url: string): string {
  const auth = config.clientToken
    ? `по токенам (клиент, агент${config.assistantToken ? ', ассистент' : '; токена ассистента нет, ассистент не подключится'})`
    : 'открытый режим (без токенов, только loopback; ассистента отмечает заголовок X-Hub-Source: assistant)';
  const dashboard = existsSync(`${DASHBOARD_ROOT}/index.html`) ? `${url}/` : 'не собрана (npm run build)';
  return [
    `Jira Hub слушает ${url}`,
    `  панель: ${dashboard}`,
    `  база данных: ${databaseName(config)}`,
    `  Swagger UI: ${url}/docs`,
    `  доступ: ${auth}`,
    `  MCP: ${url}/mcp — ${mcpModeText(config.mcpReadOnly, config.mcpTools)}`,
  ].join('\n');
}

/**
 * Starts the hub and prints where it listens (`announce: false`: the caller prints its own lines).
 * `stopLine` (the `serve` command): one line when the hub stops, by a signal or closed. `named`: the
 * options that set variables of `env` (loadConfig's refusals name them).
 */
export async function serve(
  env: NodeJS.ProcessEnv,
  options: { announce?: boolean; stopLine?: boolean; named?: OptionNames } = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const config = loadConfig(env, options.named);
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  await assertCanListen(config, host);
  const app = await createApp(config);
  await listen(app, config, host);
  const address = app.getHttpServer().address();
  const url = `http://${host}:${typeof address === 'object' && address ? address.port : config.port}`;
  if (options.announce === false) return { url, close: () => app.close() };
  console.log(banner(config, url));
  if (options.stopLine) {
    // Nest's shutdown hooks close the app on a signal and then end the process: the line comes as the server closes.
    let signal: string | null = null;
    for (const s of ['SIGINT', 'SIGTERM'] as const) process.once(s, () => (signal = s));
    app.getHttpServer().once('close', () => console.log(`${new Date().toISOString()} Jira Hub остановлен${signal ? ` (${signal})` : ''}`));
  }
  return { url, close: () => app.close() };
}
