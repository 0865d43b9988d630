/** The views of the change record (SPEC 17.1) and of an issue's history (`GET /issues/{key}/changes`). */
import type { BatchSource, CommandType, IssueChange, RecordedChange } from '@jira-hub/contracts';

/** One change as the views show it. */
export class RecordedChangeView implements RecordedChange {
  /** the issue it changed (absent for none) */
  key?: string;
  /** `field:<id>`, `status`, `sprint`, `link`, `comment`, `issue`, `link_removed`, `comment_removed`, `issue_deleted` */
  what!: string;
  before?: unknown;
  after?: unknown;
  /** status: the transitions taken, in order */
  transitions?: string[];
  command_id!: number;
  /** the delivery (1..3) whose report carried it */
  delivery_n!: number | null;
  recorded_at!: string;
}

/** One change of an issue's history (`GET /issues/{key}/changes`): the change, its batch, author and approver. */
export class IssueChangeView extends RecordedChangeView implements IssueChange {
  batch_id!: number;
  batch_title!: string;
  /** who wrote the batch */
  author!: string;
  /** client, assistant or hub */
  source!: BatchSource;
  approved_by!: string | null;
  approved_at!: string | null;
  command_type!: CommandType;
}
