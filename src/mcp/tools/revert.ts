/** The revert of a batch (SPEC 17.2): revert_batch, dry run first. */
import { z } from 'zod';
import { PENDING_TOKEN } from '../../queue/index.js';
import { revertText } from '../change-texts.js';
import { batchPage, nextStep } from '../texts.js';
import { id, tool, type ToolDef } from '../tool.js';
import { APPROVAL_OF_NEW } from './batches.js';

export const REVERT_TOOLS: ToolDef[] = [
  tool({
    name: 'revert_batch',
    title: 'Откатить пакет',
    description:
      'Строит пакет «Откат пакета #N» из обратных команд по записи изменений пакета (поля — к прежним значениям, статус и спринт — назад, ' +
      'созданные связи и комментарии — удалить, созданные задачи — пометить меткой hub-reverted и перевести в статус из настроек или удалить). ' +
      'Изменения, которые в Jira с тех пор поменяли, не трогаются и перечислены как конфликты. Сначала вызовите с dry_run: true и покажите план человеку. ' +
      `${APPROVAL_OF_NEW} Откатить пакет можно один раз. Конфликты «пока не откатить» (зеркало ещё не видело изменения пакета, ` +
      'его же меняет другой невыполненный пакет) снимаются обновлением зеркала или окончанием того пакета: пока они есть, хаб откат не создаёт (conflict). ' +
      'Создать откат без них можно, только если человек согласен, что их тогда через хаб уже не откатить: передайте в leave_pending значение pending_token ' +
      'из ответа пробного прогона, который вы ему показали; если список с тех пор изменился, хаб откат не создаст (conflict) — покажите человеку новый план.',
    writes: true,
    input: z.object({
      batch_id: id('номер пакета, который откатить'),
      dry_run: z.boolean().default(true).describe('true — только показать план, ничего не создавая'),
      leave_pending: z
        .string()
        .regex(PENDING_TOKEN, 'нужен pending_token из ответа пробного прогона (dry_run: true)')
        .optional()
        .describe(
          'pending_token из ответа пробного прогона (dry_run: true), который видел человек: создать откат, оставив перечисленные там конфликты «пока не откатить» ' +
            'неоткаченными насовсем (только с его согласия). Без него, пока такие конфликты есть, хаб откат не создаёт',
        ),
    }),
    run: async (api, a, context) => {
      const view = await api.revertBatch(a.batch_id, a.dry_run, a.leave_pending);
      // No paging here: a cut plan points at where the whole of it is.
      const rest = view.batch
        ? `все команды пакета #${view.batch.id} — get_batch {batch_id: ${view.batch.id}, view: "commands"} с offset и limit или страница ${batchPage(context.dashboard, view.batch.id)}`
        : `весь план — POST /batches/${a.batch_id}/revert?dry_run=true (REST хаба) или кнопка «Откатить…» на странице ${batchPage(context.dashboard, a.batch_id)}`;
      // A revert made waits for a person as every assistant batch: the answer says where it is approved.
      const step = view.batch ? nextStep(view.batch, context.dashboard) : '';
      const text = (n: number) => [revertText(view, n), step].filter(Boolean).join('\n');
      return { text: text(view.commands.length), data: view, list: { key: 'commands', text }, rest };
    },
  }),
];
