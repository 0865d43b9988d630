/** Views of the Queue page's overview (GET /batches/counts, GET /commands?status=failed). */
import { CommandView } from './rows.js';

export class BatchStatusCountsView {
  all!: number;
  awaiting_approval!: number;
  queued!: number;
  running!: number;
  /** every finished batch, those with errors included */
  done!: number;
  /** finished batches with a failed or skipped command */
  done_with_errors!: number;
  cancelled!: number;
  /** failed commands across all batches */
  failed_commands!: number;
}

export class FailedCommandView extends CommandView {
  batch_title!: string;
}
