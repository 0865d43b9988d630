import { createHash } from 'node:crypto';
import type pg from 'pg';
import { QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError, type DataSourceOptions, type EntityManager, type QueryRunner } from 'typeorm';
import { engineOf } from './engine.js';
import { DIACRITICS_FROM, DIACRITICS_TO, SEPARATORS } from './search-fold.js';
import { run, sql } from './sql.js';

/**
 * PostgreSQL (HUB_DATABASE_URL=postgres://…). The same entities and migrations as SQLite; never
 * `synchronize`.
 */

let driver: Promise<typeof pg> | undefined;

/**
 * The `pg` driver, loaded on first use: a hub on SQLite never loads it (issue 9, start time and
 * memory). `bigint` results (count(*), sum()) come back as numbers, as on SQLite: the hub's counts are
 * far below 2^53. openDataSource passes it to TypeORM (`driver`); the notifier's LISTEN connection uses it too.
 */
export function usePgDriver(): Promise<typeof pg> {
  driver ??= import('pg').then(({ default: loaded }) => {
    loaded.types.setTypeParser(loaded.types.builtins.INT8, (v) => Number(v));
    loaded.types.setTypeParser(loaded.types.builtins.NUMERIC, (v) => Number(v));
    return loaded;
  });
  return driver;
}

const ignore = (): void => undefined;

/**
 * The driver TypeORM gets (its `driver` option): `pg` whose Pool gives every new connection an
 * 'error' listener the moment it connects (pg-pool's 'connect' event). Without one, a connection the
 * server terminates (57P01: a failover, a pooler reset) between pg-pool handing it out and TypeORM's
 * query runner listening — "ready" and "terminating connection" arrive in one read — emits an
 * unhandled 'error' and the process exits (issue 21.9). The listener only keeps the process up: the
 * pool still drops a broken idle connection, TypeORM's runner still releases a broken busy one, and
 * the unit of work on it fails as unavailable (503).
 */
export function withConnectionErrorListeners(loaded: typeof pg): typeof pg {
  class HubPool extends loaded.Pool {
    constructor(options?: pg.PoolConfig) {
      super(options);
      this.on('connect', (client) => client.on('error', ignore));
    }
  }
  return Object.create(loaded, { Pool: { value: HubPool, enumerable: true } }) as typeof pg;
}

/** TypeORM's options of its `postgres` driver, as its index exports them (one member of the DataSourceOptions union). */
export type PostgresDataSourceOptions = Extract<DataSourceOptions, { type: 'postgres' }>;

/** Seconds a new connection may take before the attempt counts as failed. */
const CONNECT_TIMEOUT_MS = 5_000;

export function postgresOptions(url: string): PostgresDataSourceOptions {
  return {
    type: 'postgres',
    url,
    synchronize: false,
    migrationsRun: false,
    poolSize: 10,
    connectTimeoutMS: CONNECT_TIMEOUT_MS,
    applicationName: 'jira-hub',
    // A dropped connection (the server restarted) is logged by TypeORM and replaced by the pool on next use.
    poolErrorHandler: () => undefined,
  };
}

/**
 * The hub's own PostgreSQL functions, the word search of GET /issues: what SQLite's FTS5 unicode61 index does,
 * so that both engines find the same issues (decisions 1419, 1431). Created in the hub's schema by the
 * migration run, under the migration lock, and replaced when this hub's definition differs from the one stored
 * (createSearchFunctions). Nothing else is emulated: the hub's SQL uses PostgreSQL's own functions.
 * - hub_search_fold: lower case (the database's, also for a key, which is COLLATE "C"), `ё` as `е`, the
 *   diacritics unicode61 drops dropped;
 * - hub_search_words: the folded text's words, split where unicode61 splits (SEPARATORS), not where the
 *   database's locale would;
 * - hub_search_vector: the tsvector of an issue's key and summary, made of those words and their positions
 *   without PostgreSQL's text search parser (which would split them by the locale again): the generated
 *   column `issue.search` (schema v20);
 * - hub_search_query: the tsquery of a search's terms (a term's words follow each other, its last one a
 *   prefix: `'aurora' <-> '15':*`), split and folded as the index is;
 * - hub_search_text: the words as text, for schema v4's column, which v20 replaces (a fresh database passes
 *   through v4).
 * A tsvector holds lexemes of at most 2047 bytes: a word is kept to its first 511 characters (at most 2044
 * bytes), more than a search's word can have (`q` is at most 500 characters), so a prefix or a whole word
 * matches as in SQLite's index, which keeps words whole. A position past 16383 counts as 16383.
 */
export const SEARCH_FUNCTIONS = [
  `CREATE OR REPLACE FUNCTION hub_search_fold(s text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
     $$ SELECT translate(lower(s COLLATE "default"), '${DIACRITICS_FROM}', '${DIACRITICS_TO}') $$`,
  `CREATE OR REPLACE FUNCTION hub_search_words(s text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
     $$ SELECT string_to_array(btrim(regexp_replace(hub_search_fold(s), '${SEPARATORS}+', ' ', 'g')), ' ') $$`,
  `CREATE OR REPLACE FUNCTION hub_search_text(key text, summary text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
     $$ SELECT array_to_string(hub_search_words(key || ' ' || coalesce(summary, '')), ' ') $$`,
  `CREATE OR REPLACE FUNCTION hub_search_vector(key text, summary text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
     $$ SELECT coalesce(string_agg('''' || left(w, 511) || ''':' || least(n, 16383), ' ')::tsvector, ''::tsvector)
          FROM unnest(hub_search_words(key || ' ' || coalesce(summary, ''))) WITH ORDINALITY AS t(w, n) $$`,
  `CREATE OR REPLACE FUNCTION hub_search_query(terms text[]) RETURNS tsquery LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
     $$ SELECT string_agg(term, ' & ')::tsquery
          FROM (SELECT (SELECT string_agg('''' || left(w, 511) || '''' || CASE WHEN n = cardinality(words) THEN ':*' ELSE '' END, ' <-> ' ORDER BY n)
                          FROM unnest(words) WITH ORDINALITY AS u(w, n)) AS term
                  FROM (SELECT hub_search_words(t) AS words FROM unnest(terms) AS t) AS w) AS q $$`,
];

/**
 * Creates or replaces the functions whose stored definition is not this hub's: each carries a comment with
 * the hash of the statement that made it, so a current schema needs no DDL, and a role that may read and
 * write the tables but does not own the functions starts the hub. (A function made before the comments has
 * none: it is replaced once, by a migration run as the owner, which the schema changes of the same hub
 * version need anyway.)
 */
export async function createSearchFunctions(q: QueryRunner): Promise<void> {
  for (const statement of SEARCH_FUNCTIONS) {
    const [, name, args, body] = /FUNCTION (\w+)\(([^)]*)\)[\s\S]*?\$\$([\s\S]*)\$\$/.exec(statement)!;
    const mark = `jira-hub ${createHash('sha256').update(statement).digest('hex').slice(0, 16)}`;
    const found = (await q.query(
      `SELECT p.prosrc AS body, obj_description(p.oid, 'pg_proc') AS mark FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE p.proname = $1 AND n.nspname = current_schema()`,
      [name],
    )) as { body: string; mark: string | null }[];
    // The body too: CREATE OR REPLACE by another hub version keeps the comment of the function it replaces.
    if (found.length === 1 && found[0].mark === mark && found[0].body === body) continue;
    await q.query(statement);
    await q.query(`COMMENT ON FUNCTION ${name}(${args}) IS '${mark}'`);
  }
}

/**
 * Key of the advisory lock every writing unit of work (and the migration) takes, except a batch's creation:
 * one writer at a time, as SQLite's write lock (decisions 1200, 1202).
 */
export const WRITE_LOCK_KEY = 0x4a697261; // "Jira"

/**
 * Key of the advisory lock of the queue's order (decision 1202): held by every unit that gives a batch its
 * queue place or creation time (BatchRepository), and by a batch's creation from its start, which takes no
 * other; so two units never take the same place, and creating a batch never waits for the agent's units.
 */
export const QUEUE_LOCK_KEY = 0x51756575; // "Queu"

/** PostgreSQL: the unit holds the queue-order lock from now to its end (taken again by a unit that has it: nothing). SQLite: one writer already. */
export async function lockQueueOrder(m: EntityManager): Promise<void> {
  if (engineOf(m.connection) === 'postgres') await run(m, sql`SELECT pg_advisory_xact_lock(${QUEUE_LOCK_KEY})`);
}

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'EPIPE']);

/**
 * The database server cannot be used right now: not reachable, shutting down or starting, or the
 * connection broke. Such a request may succeed later, unlike a wrong query.
 */
export function isUnavailable(err: unknown): boolean {
  const e = err as { code?: string; message?: string; driverError?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  // The runner was released under the unit: TypeORM does that when its connection emits an error (the
  // hub itself releases a runner only after its unit ends).
  if (err instanceof QueryRunnerAlreadyReleasedError || err instanceof QueryRunnerProviderAlreadyReleasedError) return true;
  if (e.driverError && e.driverError !== err && isUnavailable(e.driverError)) return true;
  const code = e.code ?? '';
  if (UNREACHABLE_CODES.has(code)) return true;
  // 57P01–57P03: admin shutdown, crash shutdown, cannot connect now; class 08: connection exceptions.
  if (/^57P0[1-3]$/.test(code) || code.startsWith('08')) return true;
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is not established/i.test(
    e.message ?? '',
  );
}

/** A connection string to show: its password replaced by ***. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}

/** Node's TLS codes for a server certificate the connection did not trust. */
const UNTRUSTED_CERTIFICATE = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Why the server refused, in Russian where the driver's words are known; else the driver's message. */
function connectFailureReason(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const code = e.code ?? '';
  if (code === '28P01' || code === '28000') return 'сервер не принял пользователя или пароль';
  if (code === '3D000') return 'такой базы данных нет';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'имя сервера не находится в DNS';
  if (code === 'ECONNREFUSED') return 'на этом адресе и порту никто не слушает';
  if (/server does not support SSL/i.test(e.message ?? '')) return 'сервер не принимает SSL-соединения: включите SSL на сервере или уберите sslmode из адреса';
  if (UNTRUSTED_CERTIFICATE.has(code)) return `сертификат сервера не прошёл проверку (${code}): укажите его корневой сертификат (sslrootcert=<файл> в адресе) или имя, на которое он выписан`;
  return e.message ?? String(err);
}

/** One line for a person about a database that refused the hub at start-up (no stack trace). */
export function describeConnectFailure(url: string, err: unknown): string {
  return `не удаётся подключиться к PostgreSQL ${redactUrl(url)}: ${connectFailureReason(err)}`;
}
