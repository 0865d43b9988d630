/** The tools that read the mirror and the agent: search_issues, get_issue, agent_status. */
import { z } from 'zod';
import { agentStatusText, FENCE_NOTE, issueLine, issueLinks, issueText, linksText } from '../texts.js';
import { jiraKey, noteKey, tool, type ToolDef } from '../tool.js';

/** The longest `q`: the search takes the first 16 words of it anyway. */
const MAX_Q = 500;
const filter = (what: string) => z.string().trim().min(1).max(255).optional().describe(`${what}, без учёта регистра и ё/е`);

/** How many links of each issue found a search's text names: get_issue names more. */
const SEARCH_LINKS_SHOWN = 10;

const EMPTY_MIRROR =
  'В зеркале хаба нет ни одной задачи: его наполняют команды refresh. Прочитайте задачи проекта пакетом с командой refresh (например, {type: "refresh", params: {jql: "project = <КЛЮЧ>"}}) — пакет ассистента выполнится после одобрения человека, если оно включено в настройках хаба.';

const issueOutput = z.looseObject({ key: z.string(), links: z.array(z.string()) });

export const ISSUE_TOOLS: ToolDef[] = [
  tool({
    name: 'agent_status',
    title: 'Состояние агента',
    description: 'Агент, который пишет в Jira: онлайн или офлайн, версия, текущая команда, команды, выданные повторно (отчёт не пришёл) с числом выдач и временем последней выдачи, ответы 429 от Jira за 24 ч и предупреждение для человека. Используйте, когда пакет долго не движется.',
    writes: false,
    input: z.strictObject({}),
    output: z.looseObject({ online: z.boolean() }),
    run: async (api) => {
      const status = await api.agentStatus();
      return { text: agentStatusText(status), data: status };
    },
  }),
  tool({
    name: 'search_issues',
    title: 'Поиск задач в зеркале',
    description:
      'Ищет задачи в зеркале Jira в хабе (копия, которую обновляют команды refresh; не сама Jira) по ключам, статусу, спринту, исполнителю, метке (без учёта регистра и ё/е) или словам темы. Отвечает, сколько задач подходит всего, и как получить следующие (offset). Для каждой задачи — поля, связи в обе стороны словами («AURORA-1 блокирует AURORA-2» значит: связь от AURORA-1 к AURORA-2) и время, когда данные прочитаны из Jira. Задачи, которых нет в зеркале, прочитайте командой refresh в пакете.',
    writes: false,
    input: z.strictObject({
      keys: z.array(jiraKey).max(100).optional().describe('ключи задач (до 100)'),
      q: z
        .string()
        .max(MAX_Q, { error: `не длиннее ${MAX_Q} символов — это поиск по словам темы и ключа (учитываются первые 16 слов); сократите запрос` })
        .optional()
        .describe(`слова темы или ключа: каждое слово — начало слова задачи, без учёта регистра и ё/е; до ${MAX_Q} символов`),
      status: filter('статус, например «В работе»'),
      sprint: filter('спринт'),
      assignee: filter('исполнитель (accountId в Cloud, имя пользователя в DC)'),
      label: filter('метка'),
      limit: z.number().int().min(1).max(50).default(20).describe('сколько задач, 1..50'),
      offset: z.number().int().min(0).default(0).describe('сколько задач пропустить (для следующей страницы)'),
    }),
    output: z.looseObject({ issues: z.array(issueOutput), total: z.number().nullable() }),
    run: async (api, a) => {
      const [page, linkTypes] = await Promise.all([api.listIssues(a), api.linkTypes()]);
      const details = await Promise.all(page.items.map((i) => api.getIssue(i.key)));
      const lines = details.map((d) => {
        const links = issueLinks(d, linkTypes);
        return `${issueLine(d)}${links.length ? `; связи: ${linksText(links, SEARCH_LINKS_SHOWN)}` : ''}`;
      });
      const total = page.total ?? details.length;
      const filters = Object.entries({ q: a.q, status: a.status, sprint: a.sprint, assignee: a.assignee, label: a.label })
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${k} «${v}»`);
      /** the text of the page's first `n` issues (an answer over the cap keeps fewer: text, data and next_offset alike) */
      const text = (n: number): string => {
        const end = a.offset + n;
        if (n) {
          return [
            `Найдено задач: ${total}${end < total ? `, показаны ${a.offset + 1}–${end}; следующие — тот же поиск с offset: ${end}` : ''}.`,
            FENCE_NOTE,
            ...lines.slice(0, n),
          ].join('\n');
        }
        if (total > 0) return `Найдено задач: ${total}, но с offset ${a.offset} ничего не осталось; начните с offset: 0.`;
        if (a.keys?.length && !filters.length) return 'В зеркале таких задач нет. Если они есть в Jira — прочитайте их командой refresh в пакете.';
        // Nothing asked for and nothing found: the mirror itself is empty (a new hub, before its first refresh).
        if (!a.keys?.length && !filters.length) return EMPTY_MIRROR;
        return `Ни одна задача зеркала не подходит под фильтр (${[...filters, ...(a.keys?.length ? ['keys'] : [])].join(', ')}). Проверьте значения: зеркало ищет без учёта регистра и ё/е, но по точному названию статуса, спринта, исполнителя и метки.`;
      };
      const end = a.offset + details.length;
      return {
        text: text(details.length),
        data: { issues: details.map((d) => ({ ...d, links: issueLinks(d, linkTypes) })), total, offset: a.offset, next_offset: end < total ? end : null },
        list: { key: 'issues', text, page: { offset: a.offset, total } },
      };
    },
  }),
  tool({
    name: 'get_issue',
    title: 'Задача из зеркала',
    description:
      'Одна задача из зеркала Jira в хабе: поля, все связи в обе стороны словами («AURORA-1 блокирует AURORA-2» значит: связь от AURORA-1 к AURORA-2; в ensure_link это source=AURORA-1, target=AURORA-2), внутренняя заметка команды и время чтения из Jira. ' +
      'Временный ключ new:N читает задачу, которой он стал (как get_note).',
    writes: false,
    input: z.strictObject({ key: noteKey }),
    output: issueOutput,
    run: async (api, a) => {
      const [issue, linkTypes] = await Promise.all([api.getIssue(a.key), api.linkTypes()]);
      return {
        text: `${FENCE_NOTE}\n${issueText(issue, linkTypes)}`,
        data: { ...issue, links: issueLinks(issue, linkTypes) },
        rest: `задача со всеми связями — GET /issues/${a.key} (REST хаба)`,
      };
    },
  }),
];
