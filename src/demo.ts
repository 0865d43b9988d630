/**
 * `npm run demo`: the whole loop on one machine. Starts a hub on a temporary database, the Jira simulator and
 * the reference agent (pacing 0), submits a sample batch that uses every command type, shows progress until
 * the batch is done, prints the final mirror and stops everything. Output in Russian (it is for people).
 *
 * `npm run demo -- --keep`: then everything stays up (hub on HUB_PORT, default 3000) with something to look
 * at on the dashboard: a batch with one failing command («завершён с ошибками»), a batch running at a 20 s
 * pace (the agent strip counts its pause down and names the next command), an assistant's batch waiting
 * for approval (its plan). Ctrl+C stops it all.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from './cli.js';
import { BATCH_STATUS_WORDS } from './queue/index.js';
import { runAgent, HubClient, JiraClient, FileJournal } from '@jira-hub/agent';
import { JiraSimulator } from '@jira-hub/jira-sim';

const PROJECT = 'AURORA';
const TIMEOUT_MS = 45_000;
const KEEP = process.argv.includes('--keep');
/** The pace of the batch left running with --keep: long enough to watch the pause count down. */
const KEEP_PACE_SECONDS = 20;
const ZERO_PACING = { ensure_issue: 0, ensure_fields: 0, ensure_status: 0, ensure_link: 0, ensure_sprint: 0, ensure_comment: 0, refresh: 0 };
const IVANOV = '557058:f0000000-0000-0000-0000-000000000002';

/** A sample plan: every command type; the hub appends the tail refresh. */
const SAMPLE_BATCH = {
  title: 'Демо: отчётность за квартал',
  author: 'demo',
  commands: [
    { type: 'ensure_issue', params: { temp_key: 'new:1', issue_type: 'Task', summary: 'Подготовить квартальный отчёт', description: 'Сводка продаж за квартал' } },
    { type: 'ensure_issue', params: { temp_key: 'new:2', issue_type: 'Story', summary: 'Выгрузить данные продаж' } },
    { type: 'ensure_fields', params: { key: 'new:1', duedate: '2026-12-15', labels: ['отчёт', 'квартал'], assignee: IVANOV, priority: 'High' } },
    { type: 'ensure_fields', params: { key: 'new:2', duedate: '2026-12-10' } },
    { type: 'ensure_fields', params: { key: 'AURORA-1', duedate: '2026-12-20' } },
    { type: 'ensure_status', params: { key: 'new:2', path: ['In Progress', 'Done'] } },
    { type: 'ensure_status', params: { key: 'new:1', path: ['In Progress'] } },
    { type: 'ensure_link', params: { source: 'new:2', target: 'new:1', link_type: 'Blocks' } },
    { type: 'ensure_link', params: { source: 'new:1', target: 'AURORA-1', link_type: 'Relates' } },
    { type: 'ensure_sprint', params: { key: 'new:1', sprint: 'Спринт 2' } },
    { type: 'ensure_sprint', params: { key: 'new:2', sprint: 'Спринт 2' } },
    { type: 'ensure_comment', params: { key: 'new:1', body: 'Данные выгружены, отчёт в работе.', marker: '[hub:demo-1]' } },
  ],
};

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Json>;

const STATUS_RU: Record<string, string> = {
  queued: 'в очереди',
  claimed: 'у агента',
  done: 'выполнена',
  failed: 'ошибка',
  cancelled: 'отменена',
  skipped: 'пропущена',
  confirmed_by_state: 'подтверждена',
};

/** Polls the batch until it is done, printing each change of its counts. */
async function untilDone(call: Call, id: number, started: number, elapsed: () => string): Promise<Json> {
  let last = '';
  for (;;) {
    const view = await call('GET', `/batches/${id}`);
    const line = `${BATCH_STATUS_WORDS[view.status as keyof typeof BATCH_STATUS_WORDS] ?? view.status}: ${Object.entries(view.counts as Record<string, number>)
      .filter(([, n]) => n > 0)
      .map(([status, n]) => `${STATUS_RU[status] ?? status} ${n}`)
      .join(', ')}`;
    if (line !== last) console.log(`${elapsed()} пакет #${id} ${line}`);
    last = line;
    if (view.status === 'done') return view;
    if (Date.now() - started > TIMEOUT_MS) throw new Error(`пакет #${id} не завершён за ${TIMEOUT_MS / 1000} с`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * --keep: what the dashboard should show, then wait for Ctrl+C. A batch with one command that fails (the
 * simulator has no AURORA-999) ends «завершён с ошибками»; a batch at a 20 s pace keeps the agent pausing
 * with a next command; an assistant's batch waits for approval with its plan.
 */
async function keepRunning(call: Call, url: string, elapsed: () => string): Promise<void> {
  const failing = await call('POST', '/batches', {
    title: 'Демо: пакет с ошибкой',
    author: 'demo',
    commands: [
      { type: 'ensure_fields', params: { key: 'AURORA-1', labels: ['демо'] } },
      { type: 'ensure_fields', params: { key: 'AURORA-999', duedate: '2026-12-31' } },
    ],
  });
  await untilDone(call, failing.id, Date.now(), elapsed);
  const pacing = Object.fromEntries(Object.keys(ZERO_PACING).map((k) => [k, KEEP_PACE_SECONDS]));
  await call('PATCH', '/settings', { pacing });
  const paced = await call('POST', '/batches', {
    title: `Демо: темп ${KEEP_PACE_SECONDS} с`,
    author: 'demo',
    commands: ['AURORA-1', 'AURORA-2', 'AURORA-3'].map((key, i) => ({ type: 'ensure_comment', params: { key, body: `Демо: комментарий ${i + 1}`, marker: `[hub:demo-keep-${i + 1}]` } })),
  });
  const waiting = await call(
    'POST',
    '/batches',
    { title: 'Демо: план ассистента', commands: [{ type: 'ensure_fields', params: { key: 'AURORA-2', duedate: '2026-12-24' } }, { type: 'ensure_link', params: { source: 'AURORA-2', target: 'AURORA-77', link_type: 'Blocks' } }] },
    { 'X-Hub-Source': 'assistant' },
  );
  console.log(
    `\nДемо продолжает работать: хаб, симулятор и агент не остановлены.\n` +
      `  Панель: ${url}/\n` +
      `  Пакет #${failing.id} «${failing.title}» — завершён с ошибками (AURORA-999 в симуляторе нет).\n` +
      `  Пакет #${paced.id} «${paced.title}» — агент выдерживает паузу ${KEEP_PACE_SECONDS} с между командами: на панели видно, до какого времени пауза и что дальше.\n` +
      `  Пакет #${waiting.id} «${waiting.title}» — ждёт одобрения: откройте ${url}/#/batch/${waiting.id}, там план.\n` +
      `  Swagger UI: ${url}/docs\n` +
      `Остановить: Ctrl+C.`,
  );
  // The demo stops everything itself, in order (agent, simulator, hub), and exits with its own code: the
  // hub's own signal handlers (Nest's shutdown hooks, which end the process) are not wanted here.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.removeAllListeners(signal);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  console.log('\nОстанавливаем демо…');
}

async function main(): Promise<number> {
  const started = Date.now();
  const elapsed = (): string => `${((Date.now() - started) / 1000).toFixed(1).padStart(5)} с`;
  const dir = mkdtempSync(join(tmpdir(), 'jira-hub-demo-'));
  const cleanups: Array<() => Promise<void> | void> = [() => rmSync(dir, { recursive: true, force: true })];
  let stopped: Promise<void> | undefined;
  /** Stops what runs, in order (agent, simulator, hub), and removes the temporary database; once. */
  const stopAll = (): Promise<void> =>
    (stopped ??= (async () => {
      for (const cleanup of cleanups) {
        try {
          await cleanup();
        } catch (error) {
          console.error(`не удалось остановить: ${(error as Error).message}`);
        }
      }
    })());
  stopOnSignal(stopAll);
  try {
    // 1. the hub, on a temporary database
    const port = process.env.HUB_PORT ?? (KEEP ? '3000' : '0');
    const hub = await serve({ HUB_DB_PATH: join(dir, 'hub.sqlite'), HUB_HOST: '127.0.0.1', HUB_PORT: port, HUB_LOG_LEVEL: 'error' }, { announce: false });
    // The hub's shutdown hooks (which would end the process with the temporary database left) give way to the demo's.
    stopOnSignal(stopAll);
    console.log(`Хаб: ${hub.url} (временная база ${dir})`);
    cleanups.unshift(() => hub.close());
    const call: Call = async (method, path, body, headers = {}) => {
      const response = await fetch(hub.url + path, {
        method,
        headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path} → HTTP ${response.status}: ${text}`);
      return text ? (JSON.parse(text) as Json) : {};
    };

    // 2. the Jira simulator, with one issue that already exists
    const sim = new JiraSimulator({ projectKey: PROJECT, seed: { issues: [{ summary: 'Квартальная отчётность (эпик)', issueType: 'Epic' }] } });
    const simUrl = await sim.start();
    cleanups.unshift(() => sim.stop());
    console.log(`Симулятор Jira: ${simUrl} (проект ${PROJECT}, спринты «Спринт 1», «Спринт 2»)`);

    // 3. pacing 0 for every command type
    const settings = await call('PATCH', '/settings', { pacing: ZERO_PACING });
    console.log(`Темп: пауза 0 с для всех типов команд (версия настроек ${settings.version})`);

    // 4. the agent
    const stop = new AbortController();
    const journal = new FileJournal(join(dir, 'agent', 'journal.jsonl'));
    const agentDone = runAgent({
      hub: new HubClient({ baseUrl: hub.url, retryBaseMs: 200, retryMaxMs: 2000 }),
      jira: new JiraClient({ baseUrl: simUrl, flavor: 'cloud', auth: { kind: 'basic', email: 'bot@example.com', apiToken: 'demo' }, minRetryAfterMs: 200 }),
      journal,
      project: PROJECT,
      stopSignal: stop.signal,
      waitSeconds: 1,
      log: (line) => console.log(`${elapsed()}   агент: ${line}`),
    }).finally(() => journal.close());
    cleanups.unshift(async () => {
      stop.abort();
      await agentDone.catch(() => undefined);
    });

    // 5. the batch
    const batch = await call('POST', '/batches', SAMPLE_BATCH);
    console.log(
      `\nПакет #${batch.id} «${batch.title}»: команд ${batch.commands.length} (${SAMPLE_BATCH.commands.length} и обновление зеркала в конце), ` +
        `типы: ${[...new Set(batch.commands.map((c: Json) => c.type))].join(', ')}\n`,
    );

    // 6. progress until done
    const view = await untilDone(call, batch.id, started, elapsed);
    if (!KEEP) {
      stop.abort();
      const summary = await agentDone;
      console.log(`${elapsed()} агент остановлен: выполнено ${summary.executed}, отчётов ${summary.reported}`);
    }

    console.log(`\nКоманды пакета #${batch.id}:`);
    printTable(
      ['шаг', 'тип', 'статус', 'результат'],
      view.commands.map((c: Json) => [String(c.seq), c.type, STATUS_RU[c.status] ?? c.status, c.error ?? brief(c.type, c.result)]),
    );

    // 7. the final mirror
    const issues = (await call('GET', '/issues?limit=1000')) as unknown as Json[];
    const rows: string[][] = [];
    for (const issue of issues.sort((a, b) => keyOrder(a.key, b.key))) {
      const detail = await call('GET', `/issues/${encodeURIComponent(issue.key)}`);
      const links = [
        ...detail.links_out.map((l: Json) => `${l.link_type} → ${l.target_key}`),
        ...detail.links_in.map((l: Json) => `${l.link_type} ← ${l.source_key}`),
      ];
      rows.push([issue.key, issue.issue_type ?? '', issue.status ?? '', issue.sprint ?? '—', issue.duedate ?? '—', issue.summary ?? '', links.join('; ') || '—']);
    }
    console.log(`\nЗеркало (задач: ${issues.length}):`);
    printTable(['ключ', 'тип', 'статус', 'спринт', 'срок', 'тема', 'связи'], rows);

    const failed = view.commands.filter((c: Json) => c.status !== 'done' && c.status !== 'confirmed_by_state');
    console.log(failed.length === 0 ? `\nВсе ${view.commands.length} команд выполнены за ${elapsed().trim()}` : `\nНе выполнено команд: ${failed.length}`);
    if (KEEP) {
      await keepRunning(call, hub.url, elapsed);
      return failed.length === 0 ? 0 : 1;
    }
    console.log('Демо закончено: хаб, симулятор и агент остановлены. Чтобы они остались и панель работала: npm run demo -- --keep');
    return failed.length === 0 ? 0 : 1;
  } finally {
    await stopAll();
  }
}

/** Set by Ctrl+C or SIGTERM before the demo has finished: the process ends with 128 + the signal's number. */
let interrupted: NodeJS.Signals | undefined;

/**
 * Ctrl+C (or SIGTERM) while the demo runs: everything stopped and the temporary database removed, then the
 * exit a signal gives (130, 143). It left the database folder in the temporary folder. `--keep` waits for
 * the signal itself once the demo is up (keepRunning).
 */
function stopOnSignal(stopAll: () => Promise<void>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.once(signal, () => {
      interrupted = signal;
      console.log('\nОстанавливаем демо…');
      void stopAll().then(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
}

function brief(type: string, result: Json | null): string {
  if (!result) return '';
  if (type === 'refresh') return `задач ${result.issues?.length ?? 0}, связей ${result.links?.length ?? 0}`;
  return JSON.stringify(result);
}

function keyOrder(a: string, b: string): number {
  const [pa, na] = [a.replace(/-\d+$/, ''), Number(a.replace(/^.*-/, ''))];
  const [pb, nb] = [b.replace(/-\d+$/, ''), Number(b.replace(/^.*-/, ''))];
  return pa === pb ? na - nb : pa.localeCompare(pb);
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => (c ?? '').padEnd(widths[i]!)).join('  ').trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '─'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

main().then(
  // Interrupted: stopOnSignal ends the process (what failed then is what the signal stopped).
  (code) => interrupted || process.exit(code),
  (error: unknown) => {
    if (interrupted) return;
    console.error(`Демо не удалось: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
