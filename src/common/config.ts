import { isIP } from 'node:net';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The hub's configuration (SPEC 14), read and validated once at boot. */
export interface HubConfig {
  dbPath: string;
  databaseUrl?: string;
  host: string;
  port: number;
  clientToken?: string;
  agentToken?: string;
  logLevel: LogLevel;
  claimMaxWaitSeconds: number;
}

export class ConfigError extends Error {}

/** Injection token of the HubConfig object. */
export const HUB_CONFIG = Symbol('HUB_CONFIG');

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

function intIn(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return n;
}

function optional(raw: string | undefined): string | undefined {
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
}

export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

/** Reads SPEC 14's variables; throws ConfigError with a message a person can act on. */
export function loadConfig(env: NodeJS.ProcessEnv): HubConfig {
  const logLevel = (optional(env.HUB_LOG_LEVEL) ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`HUB_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.HUB_LOG_LEVEL}"`);
  }
  const config: HubConfig = {
    dbPath: optional(env.HUB_DB_PATH) ?? './data/hub.sqlite',
    databaseUrl: optional(env.HUB_DATABASE_URL),
    host: optional(env.HUB_HOST) ?? '127.0.0.1',
    port: intIn('HUB_PORT', env.HUB_PORT, 3000, 0, 65535),
    clientToken: optional(env.HUB_CLIENT_TOKEN),
    agentToken: optional(env.HUB_AGENT_TOKEN),
    logLevel,
    claimMaxWaitSeconds: intIn('HUB_CLAIM_MAX_WAIT_SECONDS', env.HUB_CLAIM_MAX_WAIT_SECONDS, 60, 0, 60),
  };
  if (config.databaseUrl && !/^postgres(ql)?:\/\//i.test(config.databaseUrl)) {
    throw new ConfigError('HUB_DATABASE_URL must be a PostgreSQL connection string (postgres://user:password@host:5432/database); unset it to use the embedded SQLite store at HUB_DB_PATH');
  }
  const open = !config.clientToken && !config.agentToken;
  if (!open && (!config.clientToken || !config.agentToken)) {
    throw new ConfigError('set both HUB_CLIENT_TOKEN and HUB_AGENT_TOKEN, or neither (open mode, loopback only)');
  }
  if (config.clientToken && config.clientToken === config.agentToken) {
    throw new ConfigError('HUB_CLIENT_TOKEN and HUB_AGENT_TOKEN must differ');
  }
  if (open && !isLoopback(config.host)) {
    throw new ConfigError(
      `refusing to listen on ${config.host} without HUB_CLIENT_TOKEN and HUB_AGENT_TOKEN: ` +
        'without tokens the hub serves only on a loopback address (127.0.0.1, ::1, localhost)',
    );
  }
  return config;
}

/** Loads a .env file from the working directory when there is one; the shell's variables win. */
export function loadDotEnv(path = '.env'): void {
  try {
    process.loadEnvFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
