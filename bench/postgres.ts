/**
 * `npm run bench -- pg` (issue 13): the hub's HTTP claim+report cycle on PostgreSQL, side by side in
 * one run with pg-boss 10's fetch+complete on the same server — a job queue library that talks to
 * PostgreSQL directly, in-process, with no HTTP in between. Each side gets its own schema, dropped after.
 */
import pg from 'pg';
import PgBoss from 'pg-boss';

export const BENCH_DATABASE_URL = process.env.HUB_BENCH_DATABASE_URL ?? process.env.HUB_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A schema of its own for one side of the bench; `drop` removes it. */
export async function benchSchema(name: string): Promise<{ url: string; schema: string; drop: () => Promise<void> }> {
  const schema = `${name}_${process.pid}`;
  const admin = new pg.Client({ connectionString: BENCH_DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.query(`CREATE SCHEMA ${schema}`);
  const u = new URL(BENCH_DATABASE_URL);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: u.toString(),
    schema,
    drop: async () => {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

/**
 * pg-boss on its own schema with `queued` jobs waiting; `run()` times `cycles` fetch+complete cycles by
 * one sequential worker. Its fetch slows as the queue grows: the hub's side of a comparison should have
 * a queue of the same order.
 */
export async function pgBossWorker(cycles = 1000, queued = 5 * cycles): Promise<{ run: () => Promise<number>; stop: () => Promise<void> }> {
  const { schema, drop } = await benchSchema('bench_pgboss');
  const boss = new PgBoss({ connectionString: BENCH_DATABASE_URL, schema, supervise: false, schedule: false });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.createQueue('bench');
  const jobs = Array.from({ length: queued }, (_, i) => ({ name: 'bench', data: { key: `A-${i + 1}`, duedate: '2026-12-01' } }));
  for (let i = 0; i < jobs.length; i += 1000) await boss.insert(jobs.slice(i, i + 1000));
  return {
    run: async () => {
      const t = performance.now();
      for (let i = 0; i < cycles; i++) {
        const [job] = await boss.fetch('bench');
        await boss.complete('bench', job.id);
      }
      return cycles / ((performance.now() - t) / 1000);
    },
    stop: async () => {
      await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
      await drop();
    },
  };
}
