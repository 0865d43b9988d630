/** The tools that read the mirror and the agent: search_issues, get_issue, agent_status. */
import { z } from 'zod';
import { agentStatusText, issueLine, issueLinks, issueText } from '../texts.js';
import { jiraKey, tool, type ToolDef } from '../tool.js';

export const ISSUE_TOOLS: ToolDef[] = [
  tool({
    name: 'agent_status',
    title: 'Состояние агента',
    description: 'Агент, который пишет в Jira: онлайн или офлайн, версия, текущая команда, команды, выданные повторно (отчёт не пришёл) с числом выдач и временем последней выдачи, ответы 429 от Jira за 24 ч и предупреждение для человека. Используйте, когда пакет долго не движется.',
    writes: false,
    input: z.object({}),
    run: async (api) => {
      const status = await api.agentStatus();
      return { text: agentStatusText(status), data: status };
    },
  }),
  tool({
    name: 'search_issues',
    title: 'Поиск задач в зеркале',
    description: 'Ищет задачи в зеркале Jira в хабе (копия, которую обновляют команды refresh; не сама Jira) по ключам, статусу, спринту или тексту в теме. Для каждой задачи — поля, связи в обе стороны словами («AURORA-1 блокирует AURORA-2» значит: связь от AURORA-1 к AURORA-2) и время, когда данные прочитаны из Jira. Задачи, которых нет в зеркале, прочитайте командой refresh в пакете.',
    writes: false,
    input: z.object({
      keys: z.array(jiraKey).optional().describe('ключи задач'),
      q: z.string().optional().describe('текст в теме задачи, без учёта регистра'),
      status: z.string().optional(),
      sprint: z.string().optional(),
      limit: z.number().int().min(1).max(50).default(20).describe('сколько задач, 1..50'),
      offset: z.number().int().min(0).default(0),
    }),
    run: async (api, a) => {
      const [issues, linkTypes] = await Promise.all([api.listIssues(a), api.linkTypes()]);
      const details = await Promise.all(issues.map((i) => api.getIssue(i.key)));
      const lines = details.map((d) => {
        const links = issueLinks(d, linkTypes);
        return `${issueLine(d)}${links.length ? `; связи: ${links.join('; ')}` : ''}`;
      });
      return {
        text: details.length ? [`Найдено задач: ${details.length}.`, ...lines].join('\n') : 'В зеркале таких задач нет (если они есть в Jira — прочитайте их командой refresh).',
        data: { issues: details.map((d) => ({ ...d, links: issueLinks(d, linkTypes) })) },
      };
    },
  }),
  tool({
    name: 'get_issue',
    title: 'Задача из зеркала',
    description: 'Одна задача из зеркала Jira в хабе: поля, все связи в обе стороны словами («AURORA-1 блокирует AURORA-2» значит: связь от AURORA-1 к AURORA-2; в ensure_link это source=AURORA-1, target=AURORA-2), внутренняя заметка команды и время чтения из Jira.',
    writes: false,
    input: z.object({ key: jiraKey }),
    run: async (api, a) => {
      const [issue, linkTypes] = await Promise.all([api.getIssue(a.key), api.linkTypes()]);
      return { text: issueText(issue, linkTypes), data: { ...issue, links: issueLinks(issue, linkTypes) } };
    },
  }),
];
