import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { executeCommand } from './executors.js';
import { JiraClient, JiraHttpError, JiraNetworkError, JiraStoppedError, jiraErrorText, networkProblem } from './jira-client.js';
import { MemoryJournal } from './journal.js';
import { startHarness, until, type SimHarness } from './test-support.js';

describe('jira-client', () => {
  let h: SimHarness;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h.sim.stop();
  });

  beforeEach(() => {
    h.sim.clearRequests();
    h.sleeps.length = 0;
    h.logs.length = 0;
    h.clock.now = Date.now();
    h.sim.setRateLimit({ count: 0 });
  });

  describe('JiraClient', () => {
    it('authenticates with basic email:token on Cloud and a bearer PAT on DC', async () => {
      await h.client('cloud').api('GET', '/myself');
      await h.client('dc').api('GET', '/myself');
      expect(h.sim.requests.map((r) => [r.path, r.authorization])).toEqual([
        ['/rest/api/3/myself', `Basic ${Buffer.from('bot@example.com:token').toString('base64')}`],
        ['/rest/api/2/myself', 'Bearer pat'],
      ]);
    });

    it('retries a 429 storm after Retry-After with a 5 s floor, then succeeds and counts', async () => {
      const client = h.client('cloud');
      h.sim.setRateLimit({ count: 3, retryAfterSeconds: 0 });
      await client.api('GET', '/myself');
      // random() = 0.5 in the harness: hinted waits get 5 % jitter on top
      expect(h.sleeps).toEqual([5250, 5250, 5250]);
      expect(client.stats()).toEqual({ jiraCalls: 4, rateLimited: 3 });
    });

    it('honours a Retry-After above the floor and retries 503 too', async () => {
      const client = h.client('dc');
      h.sim.setRateLimit({ count: 1, retryAfterSeconds: 12, status: 503 });
      await client.api('GET', '/myself');
      expect(h.sleeps).toEqual([12_600]);
      expect(client.rateLimited).toBe(1);
    });

    it('takes Retry-After as an HTTP date, and X-RateLimit-Reset when there is no Retry-After', async () => {
      const client = h.client('cloud');
      h.sim.setRateLimit({ count: 1, retryAfterSeconds: 40, retryAfterAsDate: true });
      const clockAt = h.clock.now; // the sleep moves the harness's clock on
      await client.api('GET', '/myself');
      expect(h.sleeps).toHaveLength(1);
      // an HTTP date has whole seconds: 39..40 s from the simulator's now, which is later than the client's
      // clock (set before the test) by the time the request took; plus 5 % jitter
      const late = Date.now() - clockAt;
      expect(h.sleeps[0]).toBeGreaterThan(38_000);
      expect(h.sleeps[0]).toBeLessThanOrEqual((40_000 + late) * 1.05);
      expect(h.logs[0]).toMatch(/^Jira answered 429 to GET \/rest\/api\/3\/myself; waiting \d+\.\d s \(Retry-After\), wait 1/);

      h.sleeps.length = 0;
      h.clock.now = Date.now();
      h.sim.setRateLimit({ count: 1, resetAfterSeconds: 90 });
      const resetClockAt = h.clock.now;
      await client.api('GET', '/myself');
      expect(h.sleeps[0]).toBeGreaterThan(88_000);
      expect(h.sleeps[0]).toBeLessThanOrEqual((91_000 + Date.now() - resetClockAt) * 1.05);
      expect(h.logs[1]).toContain('(X-RateLimit-Reset)');
    });

    it('without a hint backs off exponentially with jitter from 5 s, at most 5 min a wait, one log line each', async () => {
      const client = h.client('dc');
      h.sim.setRateLimit({ count: 9 });
      await client.api('GET', '/myself');
      // random() = 0.5 in the harness: each step 10 % above 5 s · 2^n, capped at 300 s
      expect(h.sleeps).toEqual([5500, 11_000, 22_000, 44_000, 88_000, 176_000, 300_000, 300_000, 300_000]);
      expect(h.logs).toHaveLength(9);
      expect(h.logs.every((l) => l.includes('(back-off)'))).toBe(true);
      expect(client.stats()).toEqual({ jiraCalls: 10, rateLimited: 9 });
    });

    it('a 429 storm ends in HTTP 429 only once the 30 min budget is spent (request times on the injected clock)', async () => {
      const times: number[] = [];
      const start = h.clock.now;
      const client = new JiraClient({
        baseUrl: h.url,
        flavor: 'cloud',
        auth: { kind: 'none' },
        now: () => h.clock.now,
        random: () => 0,
        sleep: async (ms) => {
          h.clock.now += ms;
        },
        fetch: ((...args: Parameters<typeof fetch>) => {
          times.push(h.clock.now - start);
          return fetch(...args);
        }) as typeof fetch,
      });
      h.sim.setRateLimit({ count: 1000 });
      const error = await client.api('POST', '/issue', { body: { fields: {} } }).catch((e: unknown) => e);
      expect((error as Error).message).toBe('Jira: ограничивает частоту запросов; агент ждал 30 мин, сколько ему позволено — повторите команду позже (HTTP 429: Rate limit exceeded.)');
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      expect(gaps.slice(0, 7)).toEqual([5000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000]);
      expect(times.at(-1)).toBe(30 * 60_000); // the last wait is cut to end at the budget, then one more try
      expect(gaps.every((g) => g <= 300_000)).toBe(true);
      expect(client.rateLimited).toBe(times.length);
      h.sim.setRateLimit({ count: 0 });
    });

    it('a smaller budget gives up sooner, the last wait cut to what is left', async () => {
      const client = new JiraClient({ baseUrl: h.url, flavor: 'cloud', auth: { kind: 'none' }, rateLimitBudgetMs: 12_000, now: () => h.clock.now, random: () => 0, sleep: async (ms) => void (h.clock.now += ms) });
      h.sim.setRateLimit({ count: 100, retryAfterSeconds: 10 });
      const error = await client.api('GET', '/myself').catch((e: unknown) => e);
      expect((error as JiraHttpError).status).toBe(429);
      expect(client.stats()).toEqual({ jiraCalls: 3, rateLimited: 3 }); // waits 10 s, then the 2 s left
      h.sim.setRateLimit({ count: 0 });
    });

    it('honours a Retry-After over 5 minutes (up to the budget) with jitter on top, never less than the hint', async () => {
      const client = h.client('cloud');
      h.sim.setRateLimit({ count: 1, retryAfterSeconds: 600 });
      await client.api('GET', '/myself');
      expect(h.sleeps).toEqual([630_000]);
      const jittered = new JiraClient({ baseUrl: h.url, flavor: 'cloud', auth: { kind: 'none' }, random: () => 0.99, now: () => h.clock.now, sleep: async (ms) => void h.sleeps.push(ms) });
      h.sleeps.length = 0;
      h.sim.setRateLimit({ count: 1, retryAfterSeconds: 10 });
      await jittered.api('GET', '/myself');
      expect(h.sleeps[0]).toBeGreaterThanOrEqual(10_000);
      expect(h.sleeps[0]).toBeLessThanOrEqual(11_000);
    });

    it('a Retry-After longer than the budget waits to the budget, then gives up with HTTP 429', async () => {
      const client = new JiraClient({ baseUrl: h.url, flavor: 'cloud', auth: { kind: 'none' }, rateLimitBudgetMs: 60_000, random: () => 0, now: () => h.clock.now, sleep: async (ms) => void h.sleeps.push(ms) });
      h.sim.setRateLimit({ count: 5, retryAfterSeconds: 3600 });
      const error = await client.api('GET', '/myself').catch((e: unknown) => e);
      expect((error as JiraHttpError).status).toBe(429);
      expect(h.sleeps).toEqual([60_000]);
      h.sim.setRateLimit({ count: 0 });
    });

    it('sends a write again after a 409 conflicting update (nothing was written), bounded by the tries', async () => {
      const client = h.client('cloud');
      h.sim.setRateLimit({ count: 2, status: 409 });
      await client.api('PUT', '/issue/AURORA-1', { body: { fields: { summary: 'После конфликта' } } }).catch((e: unknown) => e);
      expect(client.jiraCalls).toBe(3);
      expect(h.logs.filter((l) => l.includes('409 (conflicting update)'))).toHaveLength(2);
      h.sim.setRateLimit({ count: 10, status: 409 });
      const error = await client.api('POST', '/issue', { body: { fields: {} } }).catch((e: unknown) => e);
      expect((error as JiraHttpError).status).toBe(409);
      h.sim.setRateLimit({ count: 0 });
    });

    it('says in Russian which issue is missing, and that it may be gone, before Jira\'s answer', async () => {
      const error = await h.client('cloud').api('GET', '/issue/AURORA-404', { subject: 'AURORA-404', issueKeys: ['AURORA-404'] }).catch((e: unknown) => e);
      expect((error as Error).message).toBe(
        'Jira: задачи AURORA-404 нет или у агента нет прав её видеть — возможно, её удалили или перенесли в другой проект; обновите её в зеркале ' +
          '(HTTP 404: Issue does not exist or you do not have permission to see it.)',
      );
      expect(error).toMatchObject({ status: 404, subject: 'AURORA-404', issueKeys: ['AURORA-404'] });
    });

    it('names the subject of a refused request that is not about issues', async () => {
      const error = await h.client('cloud').api('GET', '/issue/AURORA-404', { subject: 'AURORA' }).catch((e: unknown) => e);
      expect((error as Error).message).toBe(
        'Jira: не нашла то, о чём запрос (AURORA), или у агента нет прав это видеть — проверьте, что оно есть в Jira (HTTP 404: Issue does not exist or you do not have permission to see it.)',
      );
    });

    it('names the fields of a 400 from Jira\'s `errors`', async () => {
      const answer = { errorMessages: [], errors: { duedate: 'Error parsing date string: 31.02.2026', customfield_10020: 'Number value expected' } };
      const fetch = (async () => new Response(JSON.stringify(answer), { status: 400, statusText: 'Bad Request' })) as typeof globalThis.fetch;
      const client = new JiraClient({ baseUrl: h.url, flavor: 'cloud', auth: { kind: 'none' }, fetch });
      const error = await client.api('PUT', '/issue/AURORA-1', { body: { fields: {} }, subject: 'AURORA-1', issueKeys: ['AURORA-1'] }).catch((e: unknown) => e);
      expect((error as Error).message).toBe(
        'Jira: не приняла значения (срок, поле «customfield_10020») для задачи AURORA-1 — исправьте их в команде или в пакете и повторите ' +
          '(HTTP 400: duedate: Error parsing date string: 31.02.2026; customfield_10020: Number value expected)',
      );
    });

    it('reports other failures with Jira\'s message after the Russian words', async () => {
      const error = await h.client('dc').api('GET', '/issue/AURORA-404').catch((e: unknown) => e);
      expect((error as Error).message).toBe('Jira: не нашла то, о чём запрос, или у агента нет прав это видеть — проверьте, что оно есть в Jira (HTTP 404: Issue does not exist or you do not have permission to see it.)');
      expect(jiraErrorText('{"errorMessages":[],"errors":{"duedate":"Error parsing date string: x"}}', 'Bad Request')).toBe('duedate: Error parsing date string: x');
      expect(jiraErrorText('<html>Bad gateway</html>', 'Bad Gateway')).toBe('<html>Bad gateway</html>');
      expect(jiraErrorText('', 'Forbidden')).toBe('Forbidden');
    });

    it.each([500, 502, 504] as const)('retries a %i for reads (not counted as rate limiting), then reports it', async (status) => {
      const client = h.client('dc');
      h.sim.setRateLimit({ count: 1, status, retryAfterSeconds: 0 });
      await client.api('POST', '/search', { body: { jql: 'project = AURORA' }, idempotent: true });
      expect(h.sleeps).toEqual([5000]);
      expect(client.stats()).toEqual({ jiraCalls: 2, rateLimited: 0 });

      h.sleeps.length = 0;
      h.sim.setRateLimit({ count: 10, status });
      const error = await client.api('GET', '/myself').catch((e: unknown) => e);
      expect((error as Error).message).toMatch(new RegExp(`^Jira: внутренняя ошибка Jira — повторите команду позже; .+ \\(HTTP ${status}: .+\\)$`));
      expect(h.sleeps).toHaveLength(4);
      h.sim.setRateLimit({ count: 0 });
    });

    it('does not repeat a write after a 502 (it may have happened), but does after a 429', async () => {
      const client = h.client('cloud');
      h.sim.setRateLimit({ count: 1, status: 502 });
      const error = await client.api('POST', '/issue', { body: { fields: {} } }).catch((e: unknown) => e);
      expect((error as Error).message).toBe('Jira: внутренняя ошибка Jira — повторите команду позже; если ошибка повторяется, её причину знает администратор Jira (HTTP 502: Bad Gateway)');
      expect(client.jiraCalls).toBe(1);
      h.sim.setRateLimit({ count: 1, status: 429 });
      const second = await client.api('POST', '/issue', { body: { fields: {} } }).catch((e: unknown) => e);
      expect((second as JiraHttpError).status).toBe(400); // retried, then the simulator's own answer
      expect(client.jiraCalls).toBe(3);
    });

    it('records the time the last answer (or failure) arrived, not when the request started', async () => {
      let clock = 1000;
      const slowFetch = (async (...args: Parameters<typeof fetch>) => {
        const response = await fetch(...args);
        clock = 5000; // the answer arrives later
        return response;
      }) as typeof fetch;
      const client = new JiraClient({ baseUrl: h.url, flavor: 'cloud', auth: { kind: 'none' }, now: () => clock, fetch: slowFetch });
      expect(client.lastCallAt).toBeNull();
      await client.api('GET', '/myself');
      expect(client.lastCallAt).toBe(5000);

      clock = 7000;
      const failing = new JiraClient({
        baseUrl: h.url,
        flavor: 'cloud',
        auth: { kind: 'none' },
        now: () => clock,
        maxTries: 1,
        fetch: (async () => {
          clock = 9000;
          throw new TypeError('fetch failed');
        }) as typeof fetch,
      });
      await expect(failing.api('GET', '/myself')).rejects.toBeInstanceOf(JiraNetworkError);
      expect(failing.lastCallAt).toBe(9000);
    });

    it('the stop signal ends a long Retry-After wait at once with JiraStoppedError', async () => {
      const stop = new AbortController();
      const client = new JiraClient({ baseUrl: h.url, flavor: 'cloud', auth: { kind: 'none' }, stopSignal: stop.signal }); // real sleep
      h.sim.setRateLimit({ count: 1, retryAfterSeconds: 120 });
      const pending = client.api('GET', '/myself').catch((e: unknown) => e);
      // Stopped once the 429 came back: the client is in its 120 s wait, which would outlast jest's timeout.
      await until(() => client.stats().rateLimited > 0);
      stop.abort();
      const error = await pending;
      expect(error).toBeInstanceOf(JiraStoppedError);
      expect(client.stats()).toEqual({ jiraCalls: 1, rateLimited: 1 }); // not sent again
      h.sim.setRateLimit({ count: 0 });
    });

    it('the stop signal aborts a request in flight (combined with the timeout), not retried as a network failure', async () => {
      const stop = new AbortController();
      const seen: AbortSignal[] = [];
      const hanging = ((_url: unknown, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          const signal = init!.signal!;
          seen.push(signal);
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        })) as typeof fetch;
      const sleeps: number[] = [];
      const client = new JiraClient({ baseUrl: h.url, flavor: 'dc', auth: { kind: 'none' }, stopSignal: stop.signal, fetch: hanging, sleep: async (ms) => void sleeps.push(ms) });
      const pending = client.api('GET', '/myself').catch((e: unknown) => e);
      setTimeout(() => stop.abort(), 20);
      const error = await pending;
      expect(error).toBeInstanceOf(JiraStoppedError);
      expect((error as Error).message).toContain('GET /rest/api/2/myself');
      expect(seen).toHaveLength(1);
      expect(sleeps).toEqual([]);
      // Once stopped, nothing more is sent.
      await expect(client.api('GET', '/myself')).rejects.toBeInstanceOf(JiraStoppedError);
      expect(seen).toHaveLength(1);
    });

    it('without a stop, the request timeout still aborts a hanging fetch (a network failure)', async () => {
      const hanging = ((_url: unknown, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason), { once: true });
        })) as typeof fetch;
      const client = new JiraClient({ baseUrl: h.url, flavor: 'dc', auth: { kind: 'none' }, stopSignal: new AbortController().signal, timeoutMs: 30, maxTries: 1, fetch: hanging });
      const error = await client.api('GET', '/myself').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JiraNetworkError);
      expect((error as Error).message).toBe('Jira недоступна (GET /rest/api/2/myself): нет ответа за 30 мс');
    });

    it('a 2xx that is not JSON (a login page, a web site at JIRA_URL) is not Jira: said in words, an outage, never JSON.parse\'s English (decision 1498)', async () => {
      const page = createServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end('<!DOCTYPE html>\n<html><head><title>Вход</title></head><body>Войдите в систему</body></html>');
      });
      await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
      try {
        const client = new JiraClient({ baseUrl: `http://127.0.0.1:${(page.address() as AddressInfo).port}`, flavor: 'cloud', auth: { kind: 'none' }, maxTries: 1 });
        const error = await client.api('GET', '/myself').catch((e: unknown) => e);
        expect(error).toBeInstanceOf(JiraNetworkError);
        expect((error as Error).message).toBe(
          'Jira недоступна (GET /rest/api/3/myself): по этому адресу отвечает не Jira — HTTP 200 с text/html вместо JSON («<!DOCTYPE html> <html><head><title>Вход</title></head><body>Войдите в систему</body></html>»); ' +
            'проверьте JIRA_URL и нет ли перед Jira прокси или страницы входа',
        );
        const out = await executeCommand({ id: 1, type: 'ensure_comment', params: { key: 'AURORA-1', body: 'x' } }, { client, project: 'AURORA', journal: new MemoryJournal() });
        expect(out).toEqual({ status: 'failed', error: (error as Error).message.replace('GET /rest/api/3/myself', 'GET /rest/api/3/issue/AURORA-1/comment'), outage: true });
      } finally {
        await new Promise((resolve) => page.close(resolve));
      }
    });

    it('says in words why Jira could not be reached, with Node\'s code: a closed port, not fetch\'s «fetch failed»', async () => {
      // A port nothing listens on: a server started and closed again.
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as AddressInfo;
      await new Promise((resolve) => closed.close(resolve));
      const client = new JiraClient({ baseUrl: `http://127.0.0.1:${port}`, flavor: 'cloud', auth: { kind: 'none' }, maxTries: 1 });
      const error = await client.api('GET', '/myself').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JiraNetworkError);
      expect((error as Error).message).toBe('Jira недоступна (GET /rest/api/3/myself): соединение отклонено — по этому адресу и порту никто не слушает (ECONNREFUSED)');
    });
  });

  describe('networkProblem', () => {
    it.each([
      [Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('getaddrinfo ENOTFOUND jira.example'), { code: 'ENOTFOUND' }) }), 'имя сервера не найдено (DNS) (ENOTFOUND)'],
      [Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('x'), { code: 'EWHATEVER' }) }), 'сетевая ошибка EWHATEVER'],
      [Object.assign(new TypeError('fetch failed'), { cause: new Error('bad port') }), 'этот порт fetch не открывает (порт из списка «bad ports» WHATWG): укажите адрес Jira с другим портом'],
      [new DOMException('The operation was aborted due to timeout', 'TimeoutError'), 'нет ответа за 60 с'],
      [new TypeError('fetch failed'), 'сетевая ошибка: fetch failed'],
    ])('%#: %s', (error, words) => {
      expect(networkProblem(error, 60_000)).toBe(words);
    });
  });
});
