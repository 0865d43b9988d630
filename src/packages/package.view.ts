/** The answers of /packages (SPEC 18). */
import { BatchView, PlanView } from '../queue/index.js';

export class PackageChangeView {
  /** @example 'duedate' */
  field!: string;
  /** the mirror's value (null for a new issue or link) */
  from!: unknown;
  /** the package's value */
  to!: unknown;
}

export class PackageCommandView {
  /** its seq in the batch apply would submit */
  seq!: number;
  /** @example 'ensure_fields' */
  type!: string;
  params!: Record<string, unknown>;
  /** the file and row the command comes from */
  file!: string;
  row!: number;
  column?: string;
  changes!: PackageChangeView[];
  /** the dry run's verdict (SPEC 15.4, 16.2) */
  verdict!: string | null;
  /** the dry run's words for it */
  verdict_text!: string | null;
}

export class PackageFindingView {
  file!: string;
  row!: number;
  column?: string;
  /** reversed_link, unknown_key, gone_from_jira, issue_type_differs, parent_differs, sprint_board_unknown, sprint_not_on_board, summary_exists, temp_key_pending */
  code!: string;
  /** Russian */
  detail!: string;
}

export class MirrorAgeView {
  /** the Jira keys compared with the mirror */
  keys!: string[];
  /** Jira keys the package names that the mirror lacks */
  missing_keys!: string[];
  /** Jira keys a refresh no longer found in Jira after the mirror read them: deleted, or moved to another project (the mirror keeps them, SPEC 7) */
  gone_keys!: string[];
  oldest_synced_at!: string | null;
  age_seconds!: number | null;
}

export class RefreshOfferView {
  /** @example 'refresh' */
  type!: string;
  params!: { keys: string[] };
}

/** A temp key of the package that an earlier batch already created (SPEC 6.3): its rows mean that issue. */
export class ResolvedTempKeyView {
  /** @example 'new:1' */
  temp_key!: string;
  /** @example 'AURORA-1600' */
  key!: string;
}

/** A plan with more commands than one batch may hold (SPEC 5): apply refuses it (422); its files are to be split (decision 1450). */
export class OverCapView {
  /** the plan's commands, all of them (the list may show fewer: `listed`) */
  commands!: number;
  /** the most one batch may hold (SPEC 5) */
  max_commands!: number;
  /** the fewest parts the files split into that each fit one batch */
  parts!: number;
  /** how many of the commands the answer lists (the first ones; at most 5,000) */
  listed!: number;
}

export class PackagePlanView {
  /** @example 'Спринт 2' */
  name!: string;
  /** Jira already matches the package: nothing to submit */
  empty!: boolean;
  /** @example 'Изменений: 3 (изменят Jira: 3). Данные зеркала: 12 задач, самые старые — 5 мин назад.' */
  text!: string;
  commands!: PackageCommandView[];
  /** the first findings in file and row order, at most 1,000 (`findings_total` counts them all) */
  findings!: PackageFindingView[];
  /** all the plan's findings; more than `findings` lists when the list is cut (the text says so) */
  findings_total!: number;
  mirror!: MirrorAgeView;
  /** a refresh of exactly the compared keys, to submit first when the mirror is old (POST /batches with this one command) */
  refresh!: RefreshOfferView | null;
  /** the hub's dry run of the batch (verdicts, estimate, approval); null for an empty plan, and for one over the batch cap (`over_cap`) */
  dry_run!: PlanView | null;
  /** more commands than one batch may hold: apply answers 422 until the files are split; null: the plan fits one batch */
  over_cap!: OverCapView | null;
  /** the package's temp keys an earlier batch already created: their rows are compared with (and change) those issues */
  temp_keys!: ResolvedTempKeyView[];
}

export class PackageView {
  id!: number;
  name!: string;
  created_at!: string;
  /** the batch its apply submitted; null when Jira already matched */
  batch_id!: number | null;
  /** the stored package this one applied again (POST /packages/{id}/apply): its temp keys mean the same issues; null: applied from files */
  applied_from!: number | null;
}

export class ApplyView {
  package!: PackageView;
  /** the submitted batch (or the running one these same files submitted before); null when Jira already matched */
  batch!: BatchView | null;
  /** the same files were applied before and that batch still runs: this is that batch */
  replayed!: boolean;
  plan!: PackagePlanView | null;
  /** @example 'Пакет #3 сохранён, пакет команд #12 ждёт одобрения: 5 команд.' */
  text!: string;
}

export class FieldDriftView {
  /** the key as the package writes it */
  key!: string;
  /** the Jira key; null for an issue not created yet */
  jira_key!: string | null;
  row!: number;
  /** @example 'duedate' */
  field!: string;
  wanted!: unknown;
  actual!: unknown;
}

export class LinkDriftView {
  row!: number;
  source!: string;
  target!: string;
  link_type!: string;
  /** missing or reversed */
  state!: string;
}

export class DriftView {
  package!: PackageView;
  /** the status of the batch its apply submitted (null: none) */
  batch_status!: string | null;
  /** the mirror matches the package, and holds every issue it names (a key the mirror lacks could not be compared) */
  matches!: boolean;
  fields!: FieldDriftView[];
  links!: LinkDriftView[];
  /** the first findings in file and row order, at most 1,000 (`findings_total` counts them all) */
  findings!: PackageFindingView[];
  /** all the findings; more than `findings` lists when the list is cut (the text says so) */
  findings_total!: number;
  mirror!: MirrorAgeView;
  /** @example 'Jira отошла от пакета #3 в 2 полях: AURORA-5 срок 2026-12-01 → 2026-12-20, …' */
  text!: string;
}
