/**
 * The team's notes and the planning package: get_note, put_note, compare_package (read only: links
 * against the mirror) and import_notes (writes the team's notes from notes.csv).
 */
import { z } from 'zod';
import { formatReport } from '../../import/index.js';
import { NOTE_LIMITS } from '../../mirror/index.js';
import { HubError } from '../hub-api.js';
import { FENCE_NOTE, noteLine } from '../texts.js';
import { csvText, noteKey, tool, type ToolDef } from '../tool.js';

const csv = () => csvText('большой пакет импортируйте через панель или jira-hub import').min(1);

const noteOutput = z.looseObject({ key: z.string(), note: z.looseObject({}).nullable().optional() });
const reportOutput = z.looseObject({ notes: z.number(), missing_links: z.array(z.looseObject({})), reversed_links: z.array(z.looseObject({})) });

export const NOTE_TOOLS: ToolDef[] = [
  tool({
    name: 'get_note',
    title: 'Заметка команды',
    description: 'Внутренняя заметка команды о задаче (фактический статус, комментарий), по ключу Jira или временному ключу new:N. Заметки никогда не уходят в Jira. Если заметки нет, так и отвечает.',
    writes: false,
    input: z.strictObject({ key: noteKey }),
    output: noteOutput,
    run: async (api, a) => {
      try {
        const note = await api.getNote(a.key);
        return { text: `${FENCE_NOTE}\n${noteLine(note)}`, data: { ...note, note } };
      } catch (err) {
        if (err instanceof HubError && err.status === 404) return { text: `Заметки о ${a.key} нет.`, data: { key: a.key, note: null } };
        throw err;
      }
    },
  }),
  tool({
    name: 'put_note',
    title: 'Записать заметку',
    group: 'notes',
    description: 'Создаёт или меняет внутреннюю заметку команды о задаче (fact_status, comment; null стирает поле). Заметки хранятся только в хабе и никогда не уходят в Jira, одобрение не нужно; хаб записывает их с источником assistant.',
    writes: true,
    input: z
      .strictObject({
        key: noteKey,
        fact_status: z.string().trim().max(NOTE_LIMITS.fact_status).nullable().optional().describe(`фактический статус своими словами, до ${NOTE_LIMITS.fact_status} символов`),
        comment: z.string().trim().max(NOTE_LIMITS.comment).nullable().optional().describe(`внутренний комментарий, до ${NOTE_LIMITS.comment} символов`),
      })
      .refine((a) => a.fact_status !== undefined || a.comment !== undefined, { error: 'передайте fact_status и/или comment' }),
    output: noteOutput,
    run: async (api, a) => {
      const note = await api.putNote(a.key, { fact_status: a.fact_status, comment: a.comment });
      return { text: `Заметка записана. ${noteLine(note)}`, data: { ...note, note } };
    },
  }),
  tool({
    name: 'compare_package',
    title: 'Сравнить связи пакета с Jira',
    description:
      'Сравнивает связи пакета планирования — CSV-текст links.csv (Откуда, Тип, Куда, Пояснение (внутр.)), разделитель «,» или «;» — с зеркалом Jira: каких нет, какие направлены наоборот, каких ключей нет в зеркале, какие строки сравнить нельзя (пустой конец, ещё не созданный временный ключ). Ничего не записывает. Связь в строке идёт от «Откуда» к «Куда». Заметки из notes.csv записывает import_notes.',
    writes: false,
    input: z.strictObject({ links_csv: csv().describe('текст links.csv с заголовком') }),
    output: reportOutput,
    run: async (api, a) => {
      const report = await api.importPackage({ links: a.links_csv });
      return { text: formatReport(report).replace(/^Заметок импортировано: \d+\n/, ''), data: report };
    },
  }),
  tool({
    name: 'import_notes',
    title: 'Импортировать заметки команды',
    group: 'notes',
    description:
      'Записывает заметки команды из CSV-текста notes.csv (Ключ, Факт. статус, Комментарий (внутр.)), разделитель «,» или «;». Заметки хранятся только в хабе и никогда не уходят в Jira; одобрение не нужно. Всё или ничего: строка с ошибкой — ничего не записано.',
    writes: true,
    input: z.strictObject({ notes_csv: csv().describe('текст notes.csv с заголовком') }),
    output: reportOutput,
    run: async (api, a) => {
      const report = await api.importPackage({ notes: a.notes_csv });
      return { text: `Заметок записано: ${report.notes}.${report.missing_keys.length ? ` Ключей нет в зеркале: ${report.missing_keys.join(', ')}.` : ''}`, data: report };
    },
  }),
];
