/**
 * The hub's views as the dashboard reads them (SPEC 9, 11.3, 15.3, 17.1): all from `@jira-hub/contracts`,
 * which the hub's answers implement (type-only imports: nothing of it reaches the bundle), under the
 * names the pages use.
 */
export type {
  AgentStatus,
  BatchCommand as Command,
  BatchStatus,
  BatchSummary,
  Batch as BatchView,
  CommandDelivery as Delivery,
  CommandStatus,
  ExpectedLink,
  HubSettings as Settings,
  ImportReport,
  IssueChange,
  MirroredIssue as Issue,
  MirroredIssueDetail as IssueDetail,
  Note,
  RecordedChange,
} from '@jira-hub/contracts';
