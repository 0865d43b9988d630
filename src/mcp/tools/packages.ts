/**
 * The MCP tools of planning packages (SPEC 18): plan a package against Jira's mirror, apply it (the batch
 * waits for a person's approval, as every batch of the assistant), and show where Jira drifted from it.
 */
import { z } from 'zod';
import { appliedPlanText, applyText, driftText, planText } from '../../packages/index.js';
import { batchPage, fenced, nextStep } from '../texts.js';
import { csvText, id, tool, type ToolDef } from '../tool.js';
import { APPROVAL_OF_NEW } from './batches.js';

const FORMAT = `Пакет — CSV-тексты (разделитель «,» или «;», заголовки по-русски или по-английски):
- issues_csv: Ключ/key (ключ Jira AURORA-12 или временный new:N для новой задачи), Тип/issue_type, Тема/summary, Родитель/parent, Срок/duedate (ГГГГ-ММ-ДД), Метки/labels (через пробел или запятую), Исполнитель/assignee, Приоритет/priority, Статус/status, Спринт/sprint, Доска/board; пустая ячейка — «без пожелания»;
- links_csv: Откуда/from, Тип/type, Куда/to, Пояснение (внутр.)/note — связь идёт от «Откуда» к «Куда»;
- notes_csv: Ключ/key, Факт. статус/fact_status, Комментарий (внутр.)/comment — внутренние заметки команды.`;

const csv = () => csvText('большой пакет передайте хабу файлами: страница «Пакеты» панели или jira-hub plan/apply <папка>').optional();
const packageShape = {
  issues_csv: csv().describe('текст issues.csv с заголовком'),
  links_csv: csv().describe('текст links.csv с заголовком'),
  notes_csv: csv().describe('текст notes.csv с заголовком'),
  name: z.string().trim().min(1).max(200).optional().describe('имя пакета, например «Спринт 2»'),
};
const someFile = (a: { issues_csv?: string; links_csv?: string; notes_csv?: string }) => a.issues_csv !== undefined || a.links_csv !== undefined || a.notes_csv !== undefined;
const texts = (a: { issues_csv?: string; links_csv?: string; notes_csv?: string }) => ({ issues: a.issues_csv, links: a.links_csv, notes: a.notes_csv });

/** How the assistant applies a package again: its own tool (it has no folder for the CLI). */
const APPLY_AGAIN = 'apply_package с теми же файлами (пакет команд ждёт одобрения человека, если оно включено в настройках хаба)';

export const PACKAGE_TOOLS: ToolDef[] = [
  tool({
    name: 'plan_package',
    title: 'План пакета планирования (без записи)',
    group: 'plan',
    description: `Сравнивает пакет планирования с зеркалом Jira и отвечает пакетом команд, который приведёт Jira к пакету: только различия (новые задачи, поля, статусы, спринты, недостающие связи), в рабочем порядке, с вердиктами сухого прогона и замечаниями (обратные связи, ключи, которых нет в зеркале). Пакет, которому Jira уже соответствует, даёт пустой план. Ничего не записывает. Говорит, насколько свежи данные зеркала, и предлагает сначала обновить именно сравненные задачи.\n${FORMAT}`,
    writes: false,
    input: z.object(packageShape).refine(someFile, { error: 'передайте issues_csv, links_csv и/или notes_csv' }),
    run: async (api, a) => {
      const plan = await api.planPackage(texts(a), a.name);
      // No paging here: a cut plan points at where the whole of it is.
      const text = (n: number) => planText({ ...plan, commands: plan.commands.slice(0, n) }, fenced);
      // An over-cap plan's view lists only its first commands, a long one only its first findings: a cut counts against the whole.
      return {
        text: text(plan.commands.length),
        data: plan,
        list: { key: 'commands', text, total: plan.over_cap?.commands },
        totals: { findings: plan.findings_total },
        rest: 'весь план — POST /packages/plan с теми же файлами (REST хаба) или jira-hub plan <папка> --json',
      };
    },
  }),
  tool({
    name: 'apply_package',
    title: 'Применить пакет планирования',
    description: `Сохраняет пакет планирования и отправляет его план (только различия с зеркалом) пакетом команд. ${APPROVAL_OF_NEW} Повтор с теми же файлами, пока пакет команд выполняется, отвечает тем же пакетом. Перед этим покажите человеку план (plan_package).\n${FORMAT}`,
    writes: true,
    input: z.object(packageShape).refine(someFile, { error: 'передайте issues_csv, links_csv и/или notes_csv' }),
    run: async (api, a, context) => {
      const applied = await api.applyPackage(texts(a), a.name);
      const batch = applied.batch?.id;
      const rest = batch ? `все команды пакета #${batch} — get_batch {batch_id: ${batch}, view: "commands"} с offset и limit или страница ${batchPage(context.dashboard, batch)}` : undefined;
      // The batch waits for a person as every assistant batch: the answer says where it is approved.
      const step = applied.batch ? nextStep(applied.batch, context.dashboard) : '';
      return { text: [applyText(applied), step, appliedPlanText(applied, fenced)].filter(Boolean).join('\n'), data: applied, rest, totals: { 'plan.findings': applied.plan?.findings_total ?? 0 } };
    },
  }),
  tool({
    name: 'package_drift',
    title: 'Где Jira отошла от пакета',
    description: 'Для применённого пакета планирования (id из apply_package) показывает по задачам и полям, где Jira по данным зеркала больше не совпадает с пакетом (кто-то сдвинул срок, закрыл задачу, сменил спринт), и связи, которых больше нет. Вернуть — снова apply_package с теми же файлами.',
    writes: false,
    input: z.object({ id: id('id пакета планирования') }),
    run: async (api, a, context) => {
      const drift = await api.packageDrift(a.id);
      return { text: driftText(drift, fenced, APPLY_AGAIN), data: drift, totals: { findings: drift.findings_total }, rest: `все расхождения — GET /packages/${a.id}/drift (REST хаба) или страница ${context.dashboard}/#/packages/${a.id}` };
    },
  }),
];
