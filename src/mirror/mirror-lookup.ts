import type { SprintState } from '@jira-hub/contracts';

/** What the confirmation rules (queue/commands/confirmation.ts) read of the mirror. */
export interface MirrorIssue {
  /** the issue type's name (the checks of SPEC 16.2 find its screens and workflow) */
  issue_type?: string | null;
  status: string | null;
  sprint: string | null;
  /** Jira's id of `sprint` and its board (decision 1430); null or absent: not known (an older agent's refresh) */
  sprint_id?: number | null;
  sprint_board_id?: number | null;
  /** that sprint's state (decision 1434); `closed`: the issue is in the backlog; null or absent: not known */
  sprint_state?: SprintState | null;
  summary: string | null;
  /** the agent reports it among `fields` (SPEC 4's Issue has no description column) */
  description?: string | null;
  duedate: string | null;
  labels: string[];
  assignee: string | null;
  priority: string | null;
  fields: Record<string, unknown>;
  /** when a refresh last wrote it (the age of what a dry run reads) */
  synced_at?: string | null;
}

export interface MirrorLookup {
  issue(key: string): MirrorIssue | undefined;
  hasLink(source: string, target: string, linkType: string): boolean;
  /**
   * The sync run that found `key` gone from Jira after the mirror read it (goneRun: deleted, moved to another
   * project or hidden from the agent), if one did. Absent: the caller did not read the runs.
   */
  gone?(key: string): number | undefined;
  /**
   * Whether a link type reads the same both ways (Relates), by the catalogue: then a link either way is the
   * link (SPEC 4). Absent (confirmation by state, which SPEC 6.6 keeps to the stored direction): never.
   */
  isSymmetric?(linkType: string): boolean;
  /**
   * The ids of the sprints named `sprint` on the board `board` (its id or name, as ensure_sprint takes it), by
   * the catalogue (decision 1430): [] when the board has none of that name, undefined when the catalogue
   * cannot tell (none, or no such board). Absent: no catalogue at hand.
   */
  sprintsOnBoard?(board: string | number, sprint: string): readonly number[] | undefined;
  /**
   * The ids of the catalogue's boards `board` names (its id, or its name in any letter case); undefined when
   * the catalogue has no such board or there is none. Absent: no catalogue at hand.
   */
  boardIds?(board: string | number): readonly number[] | undefined;
  /** Whether the catalogue lists the sprint `id` among the open (active or future) sprints; undefined without a catalogue. */
  isOpenSprint?(id: number): boolean | undefined;
  /** The catalogue's boards, to name a board a text would give by its id (boardWords); undefined without a catalogue. */
  boards?(): readonly { id: number; name: string }[] | undefined;
}

