import type { MirroredIssue, MirroredIssueDetail, Note, SprintState } from '@jira-hub/contracts';
import { MaxCharacters, QueryInteger } from '../common/index.js';
import { JIRA_KEY } from '@jira-hub/contracts/catalogue';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateBy, ValidateIf } from 'class-validator';
import { Transform } from 'class-transformer';
import { NOTE_LIMITS } from './note-limits.js';

/**
 * `keys` of GET /issues: Jira keys (ABC-123, as the mirror holds them) separated by commas, spaces around
 * each allowed; empty is no filter. Each part is tested alone (one pattern over the whole list backtracks).
 */
const isKeyList = (v: unknown): boolean => {
  if (typeof v !== 'string') return false;
  if (v.trim() === '') return true;
  const parts = v.split(',').map((k) => k.trim());
  if (parts.length > 1 && parts.at(-1) === '') parts.pop(); // a trailing comma
  return parts.every((k) => JIRA_KEY.test(k));
};

export class ListIssuesQuery {
  /**
   * comma-separated Jira keys
   * @example 'AURORA-1533,AURORA-1586'
   */
  @IsOptional()
  @IsString()
  @ValidateBy({ name: 'jiraKeyList', validator: { validate: isKeyList, defaultMessage: () => 'нужны ключи Jira через запятую, например AURORA-1,AURORA-2' } })
  keys?: string;

  /** @example 'In Progress' */
  @IsOptional() @IsString() status?: string;
  /** @example 'Спринт 2' */
  @IsOptional() @IsString() sprint?: string;
  /**
   * exact assignee (accountId on Cloud, user name on DC)
   * @example 'ivanov'
   */
  @IsOptional() @IsString() assignee?: string;
  /**
   * issues that have this label (exact)
   * @example 'backend'
   */
  @IsOptional() @IsString() label?: string;
  /**
   * words of the summary or key: every word given must start a word of the issue (case-insensitive, ё = е), e.g. «отч прод» finds «Отчёт о продажах»
   * @example 'отчёт'
   */
  @IsOptional()
  @IsString()
  @MaxLength(500)
  q?: string;

  /**
   * continue after this key (issues are ordered by key): pass the X-Next-Cursor header of the previous page
   * @example 'AURORA-1533'
   */
  @IsOptional()
  @IsString()
  @MaxLength(300)
  cursor?: string;

  /**
   * true: status, sprint, assignee and label ignore letter case and ё/е («в работе» finds «В работе»)
   * @example 'true'
   */
  @IsOptional() @IsIn(['true', 'false']) fold?: 'true' | 'false';

  /** true: the answer's header X-Total-Count says how many issues match in all */
  @IsOptional() @IsIn(['true', 'false']) count?: 'true' | 'false';

  /** @defaultValue 100 */
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;

  /** @defaultValue 0 */
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(0)
  @Max(9007199254740991) // Number.MAX_SAFE_INTEGER, written out for the OpenAPI metadata; SQLite's OFFSET takes a 64-bit integer: 1e19 would be a 500
  offset?: number;
}

/** A note's text as an imported cell counts it (package-reader.ts readNotes): spaces at its ends dropped before the limit. */
const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class PutNoteDto {
  /** @example 'в работе у подрядчика' */
  @Transform(trimmed)
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(NOTE_LIMITS.fact_status)
  @MaxCharacters(NOTE_LIMITS.fact_status)
  fact_status?: string | null;

  /** @example 'ждём ответа от юристов' */
  @Transform(trimmed)
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(NOTE_LIMITS.comment)
  @MaxCharacters(NOTE_LIMITS.comment)
  comment?: string | null;
}

export class NoteView implements Note {
  /** @example 'AURORA-1533' */
  key!: string;
  fact_status!: string | null;
  comment!: string | null;
  /** @example 'api' */
  source!: string | null;
  updated_at!: string | null;
}

export class IssueView implements MirroredIssue {
  /** @example 'AURORA-1533' */
  key!: string;
  summary!: string | null;
  issue_type!: string | null;
  status!: string | null;
  sprint!: string | null;
  /** Jira's id of the sprint (decision 1430); null in the backlog, or when the agent that refreshed the issue did not report it */
  sprint_id!: number | null;
  /** the board of that sprint, when Jira said */
  sprint_board_id!: number | null;
  /** the state Jira gives that sprint (decision 1434): closed — the issue is in no open sprint, in the backlog; null in the backlog or when the agent did not report it */
  sprint_state!: SprintState | null;
  assignee!: string | null;
  priority!: string | null;
  duedate!: string | null;
  labels!: string[];
  fields!: Record<string, unknown>;
  created!: string | null;
  updated!: string | null;
  synced_at!: string | null;
}

export class LinkOutView {
  target_key!: string;
  link_type!: string;
}

export class LinkInView {
  source_key!: string;
  link_type!: string;
}

export class IssueDetailView extends IssueView implements MirroredIssueDetail {
  links_out!: LinkOutView[];
  links_in!: LinkInView[];
  note!: NoteView | null;
}

export class SyncRunView {
  id!: number;
  started_at!: string;
  finished_at!: string | null;
  kind!: 'keys' | 'jql';
  query!: string | null;
  command_id!: number | null;
  issues!: number | null;
  links!: number | null;
  /** keys asked for and not returned */
  missing!: string[];
  /** parts of a large result applied (0: the result came whole) */
  parts!: number;
  /** the delivery of the command whose result the counts describe */
  delivery!: number | null;
  error!: string | null;
}

export class FacetValueView {
  value!: string;
  /** issues with this value */
  n!: number;
}

/** What the mirror holds, for the dashboard's filters: the statuses and sprints present, their counts, the last refresh. */
export class IssueFacetsView {
  total!: number;
  statuses!: FacetValueView[];
  sprints!: FacetValueView[];
  /** the newest synced_at of any issue: when a refresh last wrote the mirror */
  last_synced_at!: string | null;
}
