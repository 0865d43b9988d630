/** Queries and views of the catalogue's routes (SPEC 16.1, issue 20 scope 3). */
import type { CatalogueSprint } from '@jira-hub/contracts';
import { QueryInteger } from '../common/index.js';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

export class CatalogueQuery {
  /**
   * the project's key; by default the catalogue stored last
   * @example 'AURORA'
   */
  @IsOptional()
  @Matches(/^[A-Z][A-Z0-9_]*$/, { message: 'нужен ключ проекта Jira, например AURORA' })
  // Jira's keys are short (ten letters by default, 255 at most): a longer one is no key, and a 404 would repeat it whole.
  @MaxLength(255)
  project?: string;
}

export class IssueTypesQuery extends CatalogueQuery {
  /**
   * only this issue type (its name, any letter case)
   * @example 'Task'
   */
  @IsOptional() @IsString() @MaxLength(200) name?: string;
}

export class StatusesQuery extends CatalogueQuery {
  /**
   * only this issue type (its name, any letter case)
   * @example 'Task'
   */
  @IsOptional() @IsString() @MaxLength(200) issue_type?: string;
  /**
   * with `to`: the shortest known route from this status (needs issue_type; any letter case; a name that is no status of the type → 404)
   * @example 'To Do'
   */
  @IsOptional() @IsString() @MaxLength(200) from?: string;
  /**
   * with `from`: the status the route leads to
   * @example 'Done'
   */
  @IsOptional() @IsString() @MaxLength(200) to?: string;
}

export class SprintsQuery extends CatalogueQuery {
  /**
   * only the sprints of this board (its name or id)
   * @example 'AURORA board'
   */
  @IsOptional() @IsString() @MaxLength(200) board?: string;
}

export class UsersQuery extends CatalogueQuery {
  /**
   * part of the display name or id, any letter case; none: everyone (up to limit)
   * @example 'иван'
   */
  @IsOptional() @IsString() @MaxLength(200) q?: string;

  /** @defaultValue 20 */
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

export class CatalogueStateView {
  /** @example 'AURORA' */
  project_key!: string | null;
  /** cloud or dc */
  flavor!: string | null;
  agent_version!: string | null;
  /** when the hub stored the agent's report */
  synced_at!: string | null;
  /** seconds since synced_at */
  age_seconds!: number | null;
  /** older than settings catalogue_max_age_minutes, or marked stale by a command Jira refused for a screen, field, transition or permission */
  stale!: boolean;
  /** why it was marked stale */
  stale_reason!: string | null;
  /** settings catalogue_max_age_minutes */
  max_age_minutes!: number;
  /** @example 'Каталог Jira проекта AURORA прочитан 5 мин назад.' */
  text!: string;
  /** the catalogue itself (SPEC 16.1): issue types, fields, screens and workflows per type, link types, boards, sprints, priorities, components, versions, permissions, assignable users */
  catalogue!: Record<string, unknown> | null;
}

export class LinkTypeView {
  /** @example 'Blocks' */
  name!: string;
  /** @example 'blocks' */
  outward!: string;
  /** @example 'is blocked by' */
  inward!: string;
  /**
   * the words of settings link_types that name it
   * @example ['блокирует']
   */
  words!: string[];
  /** inward and outward read the same: a link either way is the same link */
  symmetric!: boolean;
}

export class ScreenFieldView {
  /** @example 'customfield_10011' */
  field_id!: string;
  /** @example 'Epic Name' */
  name!: string;
  required!: boolean;
  has_default!: boolean;
  allowed_values?: string[];
}

export class IssueTypeView {
  id!: string;
  /** @example 'Task' */
  name!: string;
  subtask!: boolean;
  hierarchy_level!: number;
  /** the fields of its create screen (ensure_issue may set only these; required ones without a default must be given) */
  create_fields!: ScreenFieldView[];
  /** the fields of its edit screen (ensure_fields may set only these); null when the agent could not read it */
  edit_fields!: ScreenFieldView[] | null;
}

export class TransitionView {
  /** null: from any status */
  from!: string | null;
  to!: string;
  name!: string;
  required_fields!: string[];
}

export class WorkflowView {
  /** @example 'Task' */
  issue_type!: string;
  /** @example ['To Do', 'In Progress', 'Done'] */
  statuses!: string[];
  initial_status!: string | null;
  transitions!: TransitionView[];
  /**
   * with from and to: the status the route starts from, as Jira writes it (`from` in another letter case names it too)
   * @example 'To Do'
   */
  route_from?: string;
  /**
   * with from and to: the shortest known route, `to` last as Jira writes it ([] when from = to; null when no known route leads there)
   * @example ['In Progress', 'Done']
   */
  route?: string[] | null;
}

export class SprintView {
  id!: number;
  /** @example 'Спринт 2' */
  name!: string;
  state!: CatalogueSprint['state'];
  board_id!: number;
  /** the board's name */
  board!: string;
}

export class UserView {
  /** Cloud: accountId; DC: user name — what ensure_fields.assignee takes */
  id!: string;
  display_name!: string;
}

export class UsersView {
  users!: UserView[];
  /** how many people match, of whom `users` are the first `limit` */
  total!: number;
  /** the catalogue's list was cut at 1,000 people: someone not found may still exist */
  truncated!: boolean;
}
