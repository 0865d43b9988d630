import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { DECIMAL_INTEGER } from './integers.js';
import { headerTokenProblem } from '@jira-hub/contracts/catalogue';
import { dotEnvRefusal } from '@jira-hub/contracts/dotenv';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The hub's configuration (SPEC 14), read and validated once at boot. */
export interface HubConfig {
  dbPath: string;
  databaseUrl?: string;
  host: string;
  port: number;
  clientToken?: string;
  agentToken?: string;
  /** SPEC 15.1: the AI assistant's token (optional even when the other two are set) */
  assistantToken?: string;
  logLevel: LogLevel;
  claimMaxWaitSeconds: number;
  /** HUB_MCP_READ_ONLY: /mcp lists only the tools that write nothing */
  mcpReadOnly: boolean;
  /** HUB_MCP_TOOLS: the tool names or groups /mcp serves (undefined: all); checked against the tools at start */
  mcpTools?: string[];
  /** how often GET /events sends a heartbeat comment */
  eventsHeartbeatSeconds: number;
  /** HUB_ALLOWED_HOSTS: Host header values served besides loopback's, normalized (common/site.ts) */
  allowedHosts: string[];
  /** HUB_ALLOWED_ORIGINS: origins of pages allowed to call besides the hub's own, normalized */
  allowedOrigins: string[];
  /** HUB_CATALOGUE_AUTO_REFRESH (default on): the hub queues `refresh_catalogue` by itself (SPEC 16.1) */
  catalogueAutoRefresh: boolean;
}

export class ConfigError extends Error {}

/**
 * Every variable of the hub's configuration (SPEC 14) and what it means, for `jira-hub <command> --help`
 * (texts for people: Russian). loadConfig reads these and no other (its `env` is typed by this table),
 * and each command's help lists the ones it reads (cli.ts).
 */
export const HUB_VARIABLES = {
  HUB_DB_PATH: 'файл SQLite (по умолчанию ./data/hub.sqlite; :memory: — временная база)',
  HUB_DATABASE_URL: 'postgres://… — PostgreSQL вместо SQLite (HUB_DB_PATH тогда не нужен)',
  HUB_HOST: 'адрес (по умолчанию 127.0.0.1; без токенов — только loopback)',
  HUB_PORT: 'порт (по умолчанию 3000; 0 — любой свободный)',
  HUB_CLIENT_TOKEN: 'токен клиента; вместе с HUB_AGENT_TOKEN: оба или ни одного',
  HUB_AGENT_TOKEN: 'токен агента; вместе с HUB_CLIENT_TOKEN',
  HUB_ASSISTANT_TOKEN: 'токен ИИ-ассистента (по желанию, рядом с двумя другими)',
  HUB_LOG_LEVEL: 'debug, info (по умолчанию), warn, error',
  HUB_CLAIM_MAX_WAIT_SECONDS: 'предел долгого опроса агента, 0..60 (по умолчанию 60)',
  HUB_EVENTS_HEARTBEAT_SECONDS: 'как часто GET /events шлёт пульс, 1..300 секунд (по умолчанию 15)',
  HUB_ALLOWED_HOSTS: 'имена за обратным прокси, которые хаб обслуживает кроме loopback, через запятую (hub.example.com)',
  HUB_ALLOWED_ORIGINS: 'сайты, страницам которых можно обращаться к хабу, через запятую (https://hub.example.com)',
  HUB_CATALOGUE_AUTO_REFRESH: 'off — хаб сам не ставит в очередь чтение каталога Jira (по умолчанию on)',
  HUB_MCP_READ_ONLY: '1 (или true, yes, on, да) — MCP предлагает только инструменты, которые ничего не пишут; 0 (false, no, off, нет) или пусто — все; другое значение остановит запуск',
  HUB_MCP_TOOLS: 'какие инструменты MCP включить: имена или группы read, plan, submit, notes через запятую',
} as const;

export type HubVariable = keyof typeof HUB_VARIABLES;

/** What loadConfig reads of the environment: HUB_VARIABLES' names only. */
export type HubEnv = { readonly [name in HubVariable]?: string };

/**
 * The command-line option that set a variable, where one did (`{ HUB_PORT: '--port' }`): a refusal names
 * what the person gave — the option, or else the variable of the environment.
 */
export type OptionNames = Partial<Record<HubVariable, string>>;

/** Only `names` of `env`, each read once: a command's configuration sees no other variable. */
export function onlyVariables(env: NodeJS.ProcessEnv, names: readonly HubVariable[]): HubEnv {
  return Object.fromEntries(names.map((name) => [name, env[name]]));
}

/** Injection token of the HubConfig object. */
export const HUB_CONFIG = Symbol('HUB_CONFIG');

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

function intIn(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = DECIMAL_INTEGER.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name}: нужно целое число от ${min} до ${max}, а задано «${raw}»`);
  }
  return n;
}

/** A yes/no variable: 1, true, yes, on (any case) → true; anything else or unset → false. */
export const isOn = (raw: string | undefined): boolean => /^(1|true|yes|on)$/i.test(raw?.trim() ?? '');

const YES = /^(1|true|yes|on|да)$/i;
const NO = /^(0|false|no|off|нет)?$/i;

/** MCP: HUB_MCP_READ_ONLY: unset, empty, 0/false/no/off → false; 1/true/yes/on → true; anything else stops the start. */
export function readOnlyFrom(raw: string | undefined): boolean {
  const v = raw?.trim() ?? '';
  if (YES.test(v)) return true;
  if (NO.test(v)) return false;
  throw new ConfigError(`HUB_MCP_READ_ONLY: непонятное значение «${v}»; укажите 1 (только чтение) или 0 (все инструменты)`);
}

/** HUB_CATALOGUE_AUTO_REFRESH: unset, empty, 1/true/yes/on/да → on; 0/false/no/off/нет → off; anything else stops the start (a typo is not «on»). */
export function autoRefreshFrom(raw: string | undefined): boolean {
  const v = raw?.trim() ?? '';
  if (v === '' || YES.test(v)) return true;
  if (NO.test(v)) return false;
  throw new ConfigError(`HUB_CATALOGUE_AUTO_REFRESH: непонятное значение «${v}»; укажите on (хаб сам читает каталог Jira) или off`);
}

/** HUB_MCP_TOOLS as a list (commas or spaces); undefined when unset or empty (every tool). */
export function toolListFrom(raw: string | undefined): string[] | undefined {
  const names = (raw ?? '').split(/[\s,]+/).filter(Boolean);
  return names.length ? names : undefined;
}

function optional(raw: string | undefined): string | undefined {
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
}

export function isLoopback(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true; // host names are case-insensitive
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

/**
 * A Host header value (or an entry of HUB_ALLOWED_HOSTS) as the hub compares it: lower case, IPv6
 * compressed, the default ports (80, 443) dropped as browsers drop them; undefined for anything else.
 */
export function normalHost(value: string): string | undefined {
  const name = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(value.trim());
  if (!name) return undefined;
  const [, host, port] = name;
  const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
  const valid = host.startsWith('[') ? isIP(host.slice(1, -1)) === 6 : isIP(host) === 4 || new RegExp(`^${label}(?:\\.${label})*$`, 'i').test(host);
  if (!valid || (port !== undefined && (Number(port) < 1 || Number(port) > 65535))) return undefined;
  return new URL(`http://${host}${port === undefined || port === '443' ? '' : `:${port}`}`).host;
}

/** An origin as browsers send it (scheme://host[:port], default port dropped), or undefined for anything else. */
export function normalOrigin(value: string): string | undefined {
  const m = /^(https?):\/\/([^/?#@]+)\/?$/i.exec(value.trim());
  const host = m && normalHost(m[2]);
  return host ? new URL(`${m[1].toLowerCase()}://${host}`).origin : undefined;
}

function hostEntry(entry: string): string {
  const host = normalHost(entry);
  if (host) return host;
  throw new ConfigError(
    `HUB_ALLOWED_HOSTS: «${entry}» — не имя хоста. Нужен список через запятую из имён или адресов, как их пишет браузер в заголовке Host, ` +
      'с портом, если он не 80/443: hub.example.com, hub.example.com:8443, 10.0.0.5:3000, [fd00::5]:3000 (без схемы, пути и звёздочек)',
  );
}

function originEntry(entry: string): string {
  const origin = normalOrigin(entry);
  if (origin) return origin;
  throw new ConfigError(
    `HUB_ALLOWED_ORIGINS: «${entry}» — не origin. Нужен список через запятую вида схема://хост[:порт] без пути: ` +
      'https://hub.example.com, http://localhost:5173 (схема http или https; «*» и «null» не принимаются)',
  );
}

/** A comma-separated list; blank items (a trailing comma) are skipped, every other one must parse. */
function listOf(raw: string | undefined, parse: (entry: string) => string): string[] {
  const entries = (raw ?? '').split(',').map((e) => e.trim()).filter(Boolean);
  return [...new Set(entries.map(parse))];
}

const TOKEN_NAMES = { clientToken: 'HUB_CLIENT_TOKEN', agentToken: 'HUB_AGENT_TOKEN', assistantToken: 'HUB_ASSISTANT_TOKEN' } as const;

/**
 * SPEC 11.1, 15.1: no token at all is open mode (loopback only). Once any token is set, the client and
 * the agent tokens must both be set (an unset one would leave its routes open); the assistant token is
 * optional (unset: no assistant can authenticate — nothing is opened by leaving it out). Every set
 * token differs from the others, so a token names one role.
 */
function checkTokens(config: HubConfig, named: OptionNames): void {
  const set = (Object.keys(TOKEN_NAMES) as (keyof typeof TOKEN_NAMES)[]).filter((k) => config[k]);
  const open = set.length === 0;
  if (!open && (!config.clientToken || !config.agentToken)) {
    throw new ConfigError(
      'задайте оба токена, HUB_CLIENT_TOKEN и HUB_AGENT_TOKEN (HUB_ASSISTANT_TOKEN — по желанию, вместе с ними), или ни одного (открытый режим, только loopback)',
    );
  }
  for (const name of set) {
    // A token no Authorization header carries would never match: a role nobody could ever take.
    const problem = headerTokenProblem(config[name]!);
    if (problem) throw new ConfigError(`${TOKEN_NAMES[name]}: ${problem} (например, из openssl rand -hex 32)`);
  }
  for (const [i, a] of set.entries()) {
    for (const b of set.slice(i + 1)) {
      if (config[a] === config[b]) throw new ConfigError(`${TOKEN_NAMES[a]} и ${TOKEN_NAMES[b]} должны различаться: каждый токен называет одну роль`);
    }
  }
  if (open && !isLoopback(config.host)) {
    throw new ConfigError(
      `без HUB_CLIENT_TOKEN и HUB_AGENT_TOKEN хаб не слушает ${config.host}: без токенов он отвечает только на ` +
        `loopback-адресе (127.0.0.1, ::1, localhost); задайте токены или другой ${named.HUB_HOST ?? 'HUB_HOST'}`,
    );
  }
}

/**
 * Reads SPEC 14's variables (unset ones take their defaults); throws ConfigError with a message a person
 * can act on, naming the option that set a value (`named`) or else its variable.
 */
export function loadConfig(env: HubEnv, named: OptionNames = {}): HubConfig {
  const logLevel = (optional(env.HUB_LOG_LEVEL) ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`HUB_LOG_LEVEL: одно из ${LOG_LEVELS.join(', ')}, а задано «${env.HUB_LOG_LEVEL}»`);
  }
  const config: HubConfig = {
    dbPath: optional(env.HUB_DB_PATH) ?? './data/hub.sqlite',
    databaseUrl: optional(env.HUB_DATABASE_URL),
    host: optional(env.HUB_HOST) ?? '127.0.0.1',
    port: intIn(named.HUB_PORT ?? 'HUB_PORT', env.HUB_PORT, 3000, 0, 65535),
    clientToken: optional(env.HUB_CLIENT_TOKEN),
    agentToken: optional(env.HUB_AGENT_TOKEN),
    assistantToken: optional(env.HUB_ASSISTANT_TOKEN),
    logLevel,
    claimMaxWaitSeconds: intIn('HUB_CLAIM_MAX_WAIT_SECONDS', env.HUB_CLAIM_MAX_WAIT_SECONDS, 60, 0, 60),
    mcpReadOnly: readOnlyFrom(env.HUB_MCP_READ_ONLY),
    mcpTools: toolListFrom(env.HUB_MCP_TOOLS),
    eventsHeartbeatSeconds: intIn('HUB_EVENTS_HEARTBEAT_SECONDS', env.HUB_EVENTS_HEARTBEAT_SECONDS, 15, 1, 300),
    allowedHosts: listOf(env.HUB_ALLOWED_HOSTS, hostEntry),
    allowedOrigins: listOf(env.HUB_ALLOWED_ORIGINS, originEntry),
    catalogueAutoRefresh: autoRefreshFrom(env.HUB_CATALOGUE_AUTO_REFRESH),
  };
  if (config.databaseUrl && !/^postgres(ql)?:\/\//i.test(config.databaseUrl)) {
    throw new ConfigError(
      'HUB_DATABASE_URL: нужна строка подключения PostgreSQL (postgres://пользователь:пароль@хост:5432/база); уберите переменную, чтобы хаб работал на встроенной SQLite (HUB_DB_PATH)',
    );
  }
  checkTokens(config, named);
  return config;
}

/** Loads a .env file from the working directory when there is one; the shell's variables win. */
export function loadDotEnv(path = '.env'): void {
  try {
    // A line Node would skip, and with it the variables after it (a token), stops the start instead.
    const refusal = dotEnvRefusal(resolve(path), readFileSync(path, 'utf8'));
    if (refusal) throw new ConfigError(refusal);
    process.loadEnvFile(path);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    // A folder named .env, a file without read permission…: one line for a person, not Node's stack.
    const why = (err as NodeJS.ErrnoException).code === 'EACCES' ? 'нет прав на чтение' : 'это не файл с переменными';
    throw new ConfigError(`${resolve(path)} не прочитать (${why}); исправьте или переименуйте его`);
  }
}
