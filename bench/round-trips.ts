import pg from 'pg';

export interface Counted<T> {
  result: T;
  /** exchanges with the server: each `Client#query` is one (a statement with parameters goes as Parse/Bind/Execute/Sync in one write, statements joined by `;` as one simple query) */
  roundTrips: number;
  /** the text of each, in order */
  statements: string[];
}

/**
 * The round trips to PostgreSQL that `fn` makes, counted where every one passes: the `pg` driver's
 * `Client#query`, which every pooled connection of the hub (and TypeORM's query runners) uses.
 * Counts every client of the process while `fn` runs: run it with nothing else going on.
 */
export async function countRoundTrips<T>(fn: () => Promise<T>): Promise<Counted<T>> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  const statements: string[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0] as string | { text?: string } | undefined;
    statements.push(typeof q === 'string' ? q : String(q?.text ?? ''));
    return query.apply(this, args);
  };
  try {
    const result = await fn();
    return { result, roundTrips: statements.length, statements };
  } finally {
    proto.query = query;
  }
}
