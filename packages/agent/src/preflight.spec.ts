import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSeed, JiraSimulator, type JiraSimulatorOptions } from '@jira-hub/jira-sim';
import { FakeHub } from './fake-hub.js';
import { agentMain, envProblems, runAgentFromEnv, type Env } from './main.js';
import type { JiraFlavor } from './jira-client.js';
import { formatChecklist } from './preflight.js';

describe('preflight', () => {
  /** `jira-hub agent --check` against the simulator and a stand-in hub: the checklist, its exit code, nothing written. */
  const dir = mkdtempSync(join(tmpdir(), 'agent-check-'));
  let hub: FakeHub;
  let hubUrl: string;
  const sims: JiraSimulator[] = [];
  let printed: string[] = [];

  beforeAll(async () => {
    hub = new FakeHub('secret');
    hubUrl = await hub.start();
    jest.spyOn(console, 'log').mockImplementation((line: unknown) => void printed.push(String(line)));
  });

  afterEach(async () => {
    await Promise.all(sims.splice(0).map((s) => s.stop()));
    hub.settings = { link_types: {}, fields: ['Story Points'] };
    printed = [];
  });

  afterAll(async () => {
    jest.restoreAllMocks(); // console.log is the next file's again (files may share a module registry: test/support/groups.ts)
    await hub.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function simulator(options: JiraSimulatorOptions = {}): Promise<JiraSimulator> {
    const sim = new JiraSimulator(options);
    await sim.start();
    sims.push(sim);
    return sim;
  }

  function envFor(sim: JiraSimulator | null, flavor: JiraFlavor, extra: Env = {}): Env {
    return {
      HUB_URL: hubUrl,
      HUB_AGENT_TOKEN: 'secret',
      JIRA_URL: sim?.url ?? 'http://127.0.0.1:9',
      JIRA_FLAVOR: flavor,
      JIRA_PROJECT: 'AURORA',
      ...(flavor === 'cloud' ? { JIRA_EMAIL: 'bot@example.com', JIRA_API_TOKEN: 'token' } : { JIRA_PAT: 'pat' }),
      AGENT_JOURNAL: join(dir, `${flavor}-journal.jsonl`),
      ...extra,
    };
  }

  async function check(env: Env): Promise<{ code: number; lines: string[] }> {
    const code = await agentMain(['--check'], env);
    return { code, lines: printed.join('\n').split('\n') };
  }

  /** Requests that could change Jira (searches are POSTed reads). */
  const writesTo = (sim: JiraSimulator) => sim.requests.filter((r) => r.method !== 'GET' && !/\/search(\/jql)?$/.test(r.path));

  describe.each(['cloud', 'dc'] as JiraFlavor[])('jira-hub agent --check on %s', (flavor) => {
    it('prints all ✓ with the default seed and exits 0, reading only', async () => {
      const sim = await simulator();
      hub.settings = { link_types: { блокирует: 'Blocks', связанные: 'Relates' }, fields: ['Story Points', 'customfield_10050'] };
      const { code, lines } = await check(envFor(sim, flavor));
      expect(lines[0]).toBe(`Проверка подключения агента к Jira (${sim.url})`);
      expect(lines.filter((l) => l.startsWith('✗'))).toEqual([]);
      expect(lines).toEqual(
        expect.arrayContaining([
          `✓ учётные данные для ${flavor === 'cloud' ? 'Jira Cloud заданы (JIRA_EMAIL, JIRA_API_TOKEN)' : 'Jira Data Center заданы (JIRA_PAT)'}`,
          '✓ хаб отвечает: настройки версии 1',
          flavor === 'cloud' ? '✓ вход в Jira: Jira Bot <bot@example.com>' : '✓ вход в Jira: Jira Bot',
          '✓ проект AURORA найден; типы задач: Task, Story, Bug, Epic, Sub-task',
          '✓ право CREATE_ISSUES: создание задач (ensure_issue)',
          '✓ право SCHEDULE_ISSUES: планирование: спринты и сроки (ensure_sprint, duedate)',
          '✓ тип связи «Blocks» (блокирует): blocks / is blocked by',
          '✓ поле «Story Points» → customfield_10016',
          '✓ поле «customfield_10050» → customfield_10050',
          '✓ доска «AURORA board» (id 1): активных и будущих спринтов 2',
        ]),
      );
      expect(lines.at(-1)).toBe('Итог: всё в порядке');
      expect(code).toBe(0);
      expect(writesTo(sim)).toEqual([]);
      expect(sim.requests.map((r) => r.path)).toEqual(expect.arrayContaining([expect.stringMatching(/\/mypermissions$/), expect.stringMatching(/\/issueLinkType$/)]));
    });

    it('two fields named like one in settings `fields`: ✗ naming both ids, exit 1', async () => {
      const base = defaultSeed();
      const sim = await simulator({ seed: { customFields: [...base.customFields, { id: 'customfield_10099', name: 'Story points', custom: 'x:float', type: 'number' }] } });
      const { code, lines } = await check(envFor(sim, flavor));
      expect(lines.filter((l) => l.startsWith('✗'))).toEqual([
        '✗ поле «Story Points» неоднозначно: в Jira несколько полей с таким названием (customfield_10016, customfield_10099); укажите в настройках id нужного поля вида customfield_N',
      ]);
      expect(lines.at(-1)).toBe('Итог: проблем 1 — агент с такими настройками работать не сможет');
      expect(code).toBe(1);
      expect(writesTo(sim)).toEqual([]);
    });

    it('a name only another team-managed project\'s own field shares is resolved by the field\'s scope (Cloud): ✓', async () => {
      const base = defaultSeed();
      const sim = await simulator({
        seed: { customFields: [...base.customFields, { id: 'customfield_10099', name: 'Story Points', custom: 'x:float', type: 'number', scope: { type: 'PROJECT', project: { id: '10777' } } }] },
      });
      const { code, lines } = await check(envFor(sim, flavor));
      // DC has no scopes: there the second field is a plain global one and the name stays ambiguous
      if (flavor === 'cloud') {
        expect(lines).toContain('✓ поле «Story Points» → customfield_10016');
        expect(code).toBe(0);
      } else expect(lines.filter((l) => l.startsWith('✗'))).toEqual([expect.stringContaining('поле «Story Points» неоднозначно')]);
    });

    it('no credentials: ✗ and nothing is sent to Jira at all (never anonymous)', async () => {
      const sim = await simulator({ anonymous: 'as-jira' });
      const env = envFor(sim, flavor, { JIRA_EMAIL: '', JIRA_API_TOKEN: undefined, JIRA_PAT: ' ' });
      const { code, lines } = await check(env);
      expect(lines.filter((l) => l.startsWith('✗'))).toEqual([
        flavor === 'cloud'
          ? '✗ учётные данные для Jira Cloud не заданы: JIRA_EMAIL, JIRA_API_TOKEN — анонимно агент не работает (Jira отвечает анонимному пользователю 404 и пустыми поисками)'
          : '✗ учётные данные для Jira Data Center не заданы: JIRA_PAT — анонимно агент не работает (Jira отвечает анонимному пользователю 404 и пустыми поисками)',
      ]);
      expect(code).toBe(1);
      expect(sim.requests).toEqual([]);
    });

    it('a link type of settings missing in Jira: ✗ listing the ones there are', async () => {
      const sim = await simulator();
      hub.settings = { link_types: { блокирует: 'Blocks', зависит: 'Depends' }, fields: [] };
      const { code, lines } = await check(envFor(sim, flavor));
      expect(lines.filter((l) => l.startsWith('✗'))).toEqual(['✗ тип связи «Depends» (зависит) из настроек хаба в Jira не найден; есть: Blocks, Relates, Duplicate']);
      expect(code).toBe(1);
    });

    it('a missing permission: ✗ naming it and what it is for', async () => {
      const sim = await simulator({ seed: { deniedPermissions: ['LINK_ISSUES', 'SCHEDULE_ISSUES'] } });
      const { code, lines } = await check(envFor(sim, flavor));
      expect(lines.filter((l) => l.startsWith('✗'))).toEqual([
        '✗ нет права LINK_ISSUES в проекте AURORA: связи между задачами (ensure_link) — выдайте его пользователю агента в схеме прав проекта',
        '✗ нет права SCHEDULE_ISSUES в проекте AURORA: планирование: спринты и сроки (ensure_sprint, duedate) — выдайте его пользователю агента в схеме прав проекта',
      ]);
      expect(code).toBe(1);
      expect(writesTo(sim)).toEqual([]);
    });

    it('reads what the catalogue reads: Assign and Resolve, create screens with required fields, Epic Link (DC), sprint field, a test search', async () => {
      const sim = await simulator({ seed: { issues: [{ summary: 'Первая', issueType: 'Task' }] } });
      const { code, lines } = await check(envFor(sim, flavor));
      expect(code).toBe(0);
      expect(lines).toEqual(
        expect.arrayContaining([
          '✓ право ASSIGN_ISSUES: назначение исполнителя (assignee в ensure_issue и ensure_fields)',
          '✓ право RESOLVE_ISSUES: переходы с резолюцией, например в «Done» (ensure_status)',
          '✓ тип «Task»: экран создания прочитан, обязательна только тема',
          flavor === 'dc' ? '✓ тип «Epic»: при создании обязательны «Epic Name» (customfield_10011) — передавайте их в fields команды ensure_issue' : '✓ тип «Epic»: экран создания прочитан, обязательна только тема',
          '✓ поле спринта: customfield_10020',
          '✓ тестовый поиск по проекту работает (последняя задача AURORA-1)',
        ]),
      );
      expect(lines.includes('✓ поле Epic Link: customfield_10014 (через него задача попадает в эпик)')).toBe(flavor === 'dc');
      expect(writesTo(sim)).toEqual([]);
    });

    it('each status the queued commands name: reachable ✓ with its route, unknown ✗ listing the statuses there are', async () => {
      const sim = await simulator({ seed: { issues: [{ summary: 'Ошибка', issueType: 'Bug', status: 'In Progress' }, { summary: 'Новая', issueType: 'Bug' }] } });
      hub.queuedStatuses = ['In Review', 'Готово'];
      try {
        const { code, lines } = await check(envFor(sim, flavor));
        expect(lines).toContain('✓ статус «In Review» достижим (Bug: To Do → In Progress → In Review)');
        expect(lines.filter((l) => l.startsWith('✗'))).toEqual(['✗ статус «Готово» (его называют команды в очереди) не найден в процессах проекта; есть: To Do, In Progress, Done, In Review']);
        // The agent itself can work: the verdict says the problem is the queued command's (docs/agent-jira.md §2)
        expect(lines.at(-1)).toBe('Итог: проблем 1 — в командах очереди, не в настройках агента: он работать будет, а эти команды завершатся ошибкой, когда до них дойдёт очередь');
        expect(code).toBe(1);
      } finally {
        hub.queuedStatuses = [];
      }
    });

    it('a status is judged in the workflow of the issue type walked there: «In Review» is in Bug\'s, not in Task\'s', async () => {
      const sim = await simulator({ seed: { issues: [{ summary: 'Ошибка', issueType: 'Bug', status: 'In Progress' }, { summary: 'Новая', issueType: 'Bug' }] } });
      hub.queuedTargets = [
        { status: 'Done', issue_types: ['Task'], unknown_type: false },
        { status: 'In Review', issue_types: ['Bug', 'Task'], unknown_type: false },
        { status: 'To Do', issue_types: ['Риск'], unknown_type: true },
      ];
      try {
        const { code, lines } = await check(envFor(sim, flavor));
        expect(lines).toContain('✓ статус «In Review» достижим (Bug: To Do → In Progress → In Review)');
        // no Task in Jira yet: its transitions are not observed, the status is in its workflow
        expect(lines).toContain('✓ статус «Done» есть в процессе (Task), но путь к нему пока не наблюдался: агент видит переходы только из статусов, в которых есть задачи');
        expect(lines.filter((l) => l.startsWith('✗'))).toEqual([
          '✗ статус «In Review» не найден в процессе типа «Task» (команды в очереди ведут туда задачи этого типа); есть: To Do, In Progress, Done',
          '✗ статус «To Do»: типа задач «Риск» (команды в очереди ведут туда задачи этого типа) в проекте нет; есть: Task, Story, Bug, Epic, Sub-task',
        ]);
        expect(lines.filter((l) => l.includes('«To Do»') && l.startsWith('✓'))).toHaveLength(1); // and, for issues of unknown type, in some workflow
        expect(code).toBe(1);
      } finally {
        hub.queuedTargets = undefined;
      }
    });

    it('Resolve or Assign missing: ✗ each', async () => {
      const sim = await simulator({ seed: { deniedPermissions: ['ASSIGN_ISSUES', 'RESOLVE_ISSUES'] } });
      const { lines } = await check(envFor(sim, flavor));
      expect(lines.filter((l) => l.startsWith('✗')).map((l) => l.slice(0, 30))).toEqual(['✗ нет права ASSIGN_ISSUES в пр', '✗ нет права RESOLVE_ISSUES в п']);
    });

    it('DC without Epic Link while the project has epics: ✗', async () => {
      const base = defaultSeed();
      const sim = await simulator({ seed: { customFields: base.customFields.filter((f) => f.id !== 'customfield_10014'), epicLinkFieldId: undefined } });
      const { lines } = await check(envFor(sim, flavor));
      expect(lines.filter((l) => l.startsWith('✗'))).toEqual(flavor === 'dc' ? ['✗ в проекте есть эпики, но поля Epic Link в Jira нет: ensure_issue с эпиком-родителем не выполнится'] : []);
    });

    it('a field missing, a project missing, Jira unreachable: the right ✗ each', async () => {
      const sim = await simulator();
      hub.settings = { link_types: {}, fields: ['Нет такого', 'customfield_77777'] };
      expect((await check(envFor(sim, flavor))).lines.filter((l) => l.startsWith('✗'))).toEqual([
        '✗ поле «Нет такого» из настроек хаба в Jira не найдено',
        '✗ поле customfield_77777 из настроек хаба в Jira не найдено',
      ]);
      printed = [];
      expect((await check(envFor(sim, flavor, { JIRA_PROJECT: 'NOPE' }))).lines.filter((l) => l.startsWith('✗'))).toEqual([
        '✗ проект NOPE не найден или не виден этому пользователю (HTTP 404) — проверьте JIRA_PROJECT и права',
      ]);
      printed = [];
      const unreachable = await check(envFor(null, flavor));
      expect(unreachable.lines.filter((l) => l.startsWith('✗'))).toEqual([expect.stringMatching(/^✗ Jira недоступна \(GET \/rest\/api\/[23]\/myself\): этот порт fetch не открывает \(порт из списка «bad ports» WHATWG\)/)]);
      expect(unreachable.code).toBe(1);
    });
  });

  describe('the agent at start', () => {
    it('reports every missing environment variable at once', () => {
      expect(envProblems({})).toEqual(['не заданы переменные окружения: HUB_URL, JIRA_URL, JIRA_PROJECT, JIRA_EMAIL, JIRA_API_TOKEN']);
      expect(envProblems({ JIRA_FLAVOR: 'dc', HUB_URL: 'http://hub:3000' })).toEqual(['не заданы переменные окружения: JIRA_URL, JIRA_PROJECT, JIRA_PAT']);
      expect(envProblems({ JIRA_FLAVOR: 'server' })).toEqual(['не заданы переменные окружения: HUB_URL, JIRA_URL, JIRA_PROJECT', 'JIRA_FLAVOR должен быть cloud или dc, а не «server»']);
    });

    it('refuses addresses that are not http(s) and a wait that is not a number, every one at once, in the start and in --check alike', async () => {
      const env = { HUB_URL: 'notaurl', JIRA_URL: 'ftp://jira', JIRA_PROJECT: 'AURORA', JIRA_EMAIL: 'a@b', JIRA_API_TOKEN: 't', AGENT_WAIT_SECONDS: 'abc' };
      const problems = [
        'HUB_URL — не адрес http(s): «notaurl» (например, http://127.0.0.1:3000)',
        'JIRA_URL — не адрес http(s): «ftp://jira» (например, https://example.atlassian.net)',
        'AGENT_WAIT_SECONDS должно быть числом секунд (0..60), а не «abc»',
      ];
      expect(envProblems(env)).toEqual(problems);
      await expect(runAgentFromEnv(env)).rejects.toThrow(problems.join('; '));
      const code = await agentMain(['--check'], env);
      expect(code).toBe(1);
      expect(printed.join('\n')).toContain(`✗ ${problems[0]}`);
      expect(printed.join('\n')).not.toContain('адреса заданы');
    });

    it('refuses an address with «user:password@», its password shown nowhere, instead of fetch’s English refusal quoting it into the log; nothing sent to Jira', async () => {
      const sim = await simulator();
      const jira = new URL(sim.url);
      const hubAt = new URL(hubUrl);
      const env = envFor(sim, 'cloud', { JIRA_URL: `http://bot:JIRA-PASSWORD@${jira.host}`, HUB_URL: `http://agent:HUB-PASSWORD@${hubAt.host}` });
      const problems = [
        `HUB_URL — адрес с логином или паролем («http://***@${hubAt.host}»): такой адрес агент не открывает; уберите из него «логин:пароль@» — токен хаба задаёт HUB_AGENT_TOKEN`,
        `JIRA_URL — адрес с логином или паролем («http://***@${jira.host}»): такой адрес агент не открывает; уберите из него «логин:пароль@» — учётные данные Jira задают JIRA_EMAIL и JIRA_API_TOKEN (Cloud) или JIRA_PAT (Data Center)`,
      ];
      expect(envProblems(env)).toEqual(problems);
      const { code, lines } = await check(env);
      expect(code).toBe(1);
      expect(lines[0]).toBe(`Проверка подключения агента к Jira (http://***@${jira.host})`);
      expect(lines).toEqual(expect.arrayContaining(problems.map((p) => `✗ ${p}`)));
      await expect(runAgentFromEnv(env)).rejects.toThrow(problems.join('; '));
      const refusal = await runAgentFromEnv(env).catch((err: Error) => err.message);
      expect(`${printed.join('\n')}\n${refusal}`).not.toMatch(/PASSWORD/);
      expect(sim.requests).toEqual([]);
    });

    it('refuses a bearer token no Authorization header carries, naming it, instead of retrying fetch’s English error for ever', async () => {
      const base = { HUB_URL: 'http://hub:3000', JIRA_URL: 'http://jira', JIRA_PROJECT: 'AURORA' };
      expect(envProblems({ ...base, JIRA_EMAIL: 'a@b', JIRA_API_TOKEN: 'токен', HUB_AGENT_TOKEN: 'агент' })).toEqual([expect.stringMatching(/^HUB_AGENT_TOKEN: символ «а» \(U\+0430\) нельзя передать в заголовке Authorization/)]);
      expect(envProblems({ ...base, JIRA_FLAVOR: 'dc', JIRA_PAT: 'pat\u00a0x' })).toEqual([expect.stringMatching(/^JIRA_PAT: символ «\u00a0» \(U\+00A0\)/)]);
      expect(envProblems({ ...base, JIRA_FLAVOR: 'dc', JIRA_PAT: 'Zz-09_./+=', HUB_AGENT_TOKEN: 'a b!' })).toEqual([]);
    });

    it('refuses a journal path it cannot use in one Russian line, before anything goes to the hub or to Jira', async () => {
      const sim = await simulator();
      const hubRequests = hub.events.length;
      await expect(runAgentFromEnv(envFor(sim, 'cloud', { AGENT_ONCE: '1', AGENT_WAIT_SECONDS: '0', AGENT_JOURNAL: dir }))).rejects.toThrow(
        `журнал агента AGENT_JOURNAL=${dir} не открыть: это папка, а нужен файл`,
      );
      // A folder of a file system that holds none (/proc): refused at once (a recursive mkdir spun there for ever).
      await expect(runAgentFromEnv(envFor(sim, 'cloud', { AGENT_ONCE: '1', AGENT_WAIT_SECONDS: '0', AGENT_JOURNAL: '/proc/jira-hub-agent/journal.jsonl' }))).rejects.toThrow(
        'журнал агента AGENT_JOURNAL=/proc/jira-hub-agent/journal.jsonl не открыть: папку для него не создать',
      );
      expect(sim.requests).toEqual([]);
      expect(hub.events.length).toBe(hubRequests);
    });

    it('starts despite a queued command naming a status the project does not have: that command fails alone, the next runs', async () => {
      const sim = await simulator({ seed: { issues: [{ summary: 'Задача', issueType: 'Task' }] } });
      hub.enqueue({ id: 901, type: 'ensure_status', params: { key: 'AURORA-1', path: ['Готово'] } });
      hub.enqueue({ id: 902, type: 'ensure_comment', params: { key: 'AURORA-1', body: 'после', marker: '[hub:902]' } });
      hub.queuedStatuses = ['Готово'];
      const stop = new AbortController();
      hub.onIdle = () => stop.abort();
      try {
        await runAgentFromEnv({ ...envFor(sim, 'cloud'), AGENT_WAIT_SECONDS: '0', AGENT_JOURNAL: join(dir, 'queued-status.jsonl') }, stop.signal);
      } finally {
        hub.queuedStatuses = [];
        hub.onIdle = undefined;
      }
      expect(printed.some((l) => l.includes('agent check ✗ статус «Готово» (его называют команды в очереди) не найден'))).toBe(true);
      expect(hub.reports.map((r) => [r.id, r.body.status])).toEqual([
        [901, 'failed'],
        [902, 'done'],
      ]);
      hub.events.length = 0;
      hub.reports.length = 0;
    });

    it('runs the same checks and refuses to start on a ✗, writing nothing', async () => {
      const sim = await simulator({ seed: { deniedPermissions: ['CREATE_ISSUES'] } });
      hub.enqueue({ id: 900, type: 'ensure_comment', params: { key: 'AURORA-1', body: 'x' } });
      await expect(runAgentFromEnv({ ...envFor(sim, 'cloud'), AGENT_ONCE: '1', AGENT_WAIT_SECONDS: '0' })).rejects.toThrow(
        'проверка перед стартом не пройдена: нет права CREATE_ISSUES в проекте AURORA',
      );
      expect(printed.some((l) => l.includes('agent check ✗ нет права CREATE_ISSUES'))).toBe(true);
      expect(writesTo(sim)).toEqual([]);
      expect(hub.events.filter((e) => e.kind === 'claim')).toEqual([]);
    });
  });
});

describe('formatChecklist: the verdict tells the agent\'s problems from the queued commands\'', () => {
  const agent = { ok: false, text: 'поле «Story Points» из настроек хаба в Jira не найдено' };
  const command = { ok: false, command: true, text: 'статус «Готово» (его называют команды в очереди) не найден в процессах проекта; есть: To Do' };
  it.each([
    ['nothing wrong', [{ ok: true, text: 'ok' }], 'Итог: всё в порядке'],
    ['only a queued command', [command], 'Итог: проблем 1 — в командах очереди, не в настройках агента: он работать будет, а эти команды завершатся ошибкой, когда до них дойдёт очередь'],
    ['the agent\'s own, with a command\'s', [agent, command], 'Итог: проблем 2 — агент с такими настройками работать не сможет'],
  ])('%s', (_, lines, verdict) => {
    expect(formatChecklist('Проверка', lines).split('\n').at(-1)).toBe(verdict);
  });
});
