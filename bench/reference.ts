/**
 * The plain-http reference of the agent's cycle, built by the bench itself: `node:http` and
 * better-sqlite3 (WAL, synchronous=FULL) with the same two durable commits per cycle as the hub —
 * the claim (next queued command → claimed, the agent's last-seen time) and the report (claimed →
 * done with its result). No framework, no validation beyond what the routes need: the floor a hub on
 * this machine could reach, measured in the same run as the hub.
 */
import Database from 'better-sqlite3';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

function body(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {});
      } catch (err) {
        reject(err);
      }
    });
    req.on('error', reject);
  });
}

export interface Reference {
  port: number;
  close(): Promise<void>;
}

/** A reference server on a new database in `dir` with `queued` commands waiting. */
export async function startReference(dir: string, queued: number): Promise<Reference> {
  const db = new Database(join(dir, 'reference.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE command (id INTEGER PRIMARY KEY, type TEXT NOT NULL, params TEXT NOT NULL, status TEXT NOT NULL,
             claimed_at TEXT, finished_at TEXT, result TEXT, deliveries INTEGER NOT NULL DEFAULT 0);
           CREATE INDEX idx_queued ON command (id) WHERE status = 'queued';
           CREATE TABLE agent (id INTEGER PRIMARY KEY, last_seen_at TEXT, current INTEGER);
           INSERT INTO agent (id) VALUES (1);`);
  const insert = db.prepare(`INSERT INTO command (type, params, status) VALUES ('ensure_fields', ?, 'queued')`);
  db.transaction(() => {
    for (let i = 0; i < queued; i++) insert.run(JSON.stringify({ key: `A-${i + 1}`, duedate: '2026-12-01' }));
  })();
  const next = db.prepare(`SELECT id, type, params, deliveries FROM command WHERE status = 'queued' ORDER BY id LIMIT 1`);
  const take = db.prepare(`UPDATE command SET status = 'claimed', claimed_at = ?, deliveries = deliveries + 1 WHERE id = ?`);
  const seen = db.prepare('UPDATE agent SET last_seen_at = ?, current = ? WHERE id = 1');
  const finish = db.prepare(`UPDATE command SET status = 'done', result = ?, finished_at = ? WHERE id = ? AND status = 'claimed'`);
  const claim = db.transaction((now: string) => {
    const c = next.get() as { id: number; type: string; params: string; deliveries: number } | undefined;
    seen.run(now, c?.id ?? null);
    if (!c) return null;
    take.run(now, c.id);
    return { id: c.id, type: c.type, params: JSON.parse(c.params) as unknown, pause_seconds: 0, deliveries: c.deliveries + 1 };
  });
  const report = db.transaction((id: number, result: unknown, now: string) => finish.run(JSON.stringify(result ?? {}), now, id).changes);

  const server: Server = createServer((req, res) => {
    const send = (status: number, value: unknown) => {
      const text = JSON.stringify(value);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    body(req).then(
      (b) => {
        const now = new Date().toISOString();
        if (req.method === 'POST' && req.url === '/agent/claim') return send(200, { command: claim(now), settings_version: 1 });
        const m = /^\/agent\/commands\/(\d+)\/result$/.exec(req.url ?? '');
        if (req.method === 'POST' && m) {
          const { status, result } = b as { status?: string; result?: unknown };
          if (status !== 'done' && status !== 'failed') return send(422, { error: 'validation_failed' });
          return report(Number(m[1]), result, now) ? send(200, { id: Number(m[1]), status }) : send(409, { error: 'not_claimed' });
        }
        send(404, { error: 'not_found' });
      },
      () => send(400, { error: 'bad_json' }),
    );
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      db.close();
    },
  };
}
