/** The answer of POST /batches/{id}/cancel (SPEC 6.7 as amended): the batch, and what the cancel did. */
import { BatchView } from './rows.js';

export class CommandWithAgentView {
  id!: number;
  seq!: number;
  type!: string;
}

export class CancelBatchView extends BatchView {
  /** how many queued commands this call cancelled (0 on a repeat) */
  cancelled_now!: number;
  /** the command still with the agent (claimed): it finishes or is handed out again; cancel it with POST /commands/{id}/cancel {force: true} */
  with_agent!: CommandWithAgentView | null;
  /** @example 'Отменено команд: 3. Команда #12 (шаг 2 пакета, ensure_fields) ещё у агента: она завершится или будет выдана снова; отменить её можно только с force: true.' */
  message!: string;
}

export function cancelAnswer(view: BatchView, cancelled: number): CancelBatchView {
  const claimed = view.commands.find((c) => c.status === 'claimed');
  const withAgent = claimed ? { id: claimed.id, seq: claimed.seq, type: claimed.type } : null;
  const message = [
    cancelled ? `Отменено команд: ${cancelled}.` : 'Ни одной команды не отменено: в очереди у пакета их не было.',
    withAgent
      ? `Команда #${withAgent.id} (шаг ${withAgent.seq} пакета, ${withAgent.type}) ещё у агента: она завершится или будет выдана снова; отменить её можно только с force: true.`
      : 'У агента команд этого пакета нет.',
  ].join(' ');
  return { ...view, cancelled_now: cancelled, with_agent: withAgent, message };
}
