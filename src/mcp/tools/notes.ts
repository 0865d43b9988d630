/** The team's notes and the planning package: get_note, put_note, compare_package. */
import { z } from 'zod';
import { formatReport } from '../../import/report-text.js';
import { noteLine } from '../texts.js';
import { noteKey, tool, type ToolDef } from '../tool.js';

export const NOTE_TOOLS: ToolDef[] = [
  tool({
    name: 'get_note',
    title: 'Заметка команды',
    description: 'Внутренняя заметка команды о задаче (фактический статус, комментарий), по ключу Jira или временному ключу new:N. Заметки никогда не уходят в Jira.',
    writes: false,
    input: z.object({ key: noteKey }),
    run: async (api, a) => {
      const note = await api.getNote(a.key);
      return { text: noteLine(note), data: note };
    },
  }),
  tool({
    name: 'put_note',
    title: 'Записать заметку',
    description: 'Создаёт или меняет внутреннюю заметку команды о задаче (fact_status, comment; null стирает поле). Заметки хранятся только в хабе и никогда не уходят в Jira, одобрение не нужно.',
    writes: true,
    input: z
      .object({
        key: noteKey,
        fact_status: z.string().nullable().optional().describe('фактический статус своими словами'),
        comment: z.string().nullable().optional().describe('внутренний комментарий'),
      })
      .refine((a) => a.fact_status !== undefined || a.comment !== undefined, { error: 'передайте fact_status и/или comment' }),
    run: async (api, a) => {
      const note = await api.putNote(a.key, { fact_status: a.fact_status, comment: a.comment });
      return { text: `Заметка записана. ${noteLine(note)}`, data: note };
    },
  }),
  tool({
    name: 'compare_package',
    title: 'Сравнить пакет планирования с Jira',
    description: 'Импортирует пакет планирования — CSV-тексты notes.csv (Ключ, Факт. статус, Комментарий (внутр.)) и/или links.csv (Откуда, Тип, Куда, Пояснение (внутр.)), разделитель «,» или «;» — и сравнивает связи с зеркалом Jira: каких нет, какие направлены наоборот, каких ключей нет в зеркале. Строки notes записываются как заметки команды (в Jira ничего не уходит). Связь в строке идёт от «Откуда» к «Куда».',
    writes: true,
    input: z
      .object({
        notes_csv: z.string().optional().describe('текст notes.csv с заголовком'),
        links_csv: z.string().optional().describe('текст links.csv с заголовком'),
      })
      .refine((a) => a.notes_csv !== undefined || a.links_csv !== undefined, { error: 'передайте notes_csv и/или links_csv' }),
    run: async (api, a) => {
      const report = await api.importPackage({ notes: a.notes_csv, links: a.links_csv });
      return { text: formatReport(report), data: report };
    },
  }),
];
