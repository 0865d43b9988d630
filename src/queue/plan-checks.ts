/**
 * The checks of SPEC 16.2 around a submit and a dry run, inside their unit of work: the catalogue, the
 * mirror and the temp keys of earlier batches gathered, the one check function run, and a refusal made
 * of its findings.
 */
import type { CheckVerdict, Finding } from '@jira-hub/contracts';
import type { EntityManager } from 'typeorm';
import { CATALOGUE_CODES, catalogueIsStale, checkCommands, SYNTAX_CODES, type CheckOutcome } from '../catalogue/index.js';
import type { CatalogueRepository, StoredCatalogue } from '../catalogue/index.js';
import { type BatchSource, comparableText, DuplicateSummaryError, type FieldError, ForbiddenError, isJiraKey, isTempKey, PlanFailedError, ValidationFailedError } from '../common/index.js';
import type { IssueRepository, MissingKeys, SyncRunRepository } from '../mirror/index.js';
import type { Settings } from '../settings/index.js';
import { duplicateSummaries, duplicateSummaryDetail, type CommandInput } from './commands/batch-rules.js';
import { COMMAND_RULES } from './commands/rules.js';
import type { CommandRepository } from './command.repository.js';
import { CHECK_VERDICTS, type BatchChecksView } from './checks.view.js';

/** refuse: any finding refuses the batch; warn: findings that depend on the catalogue are stored as warnings (a client's choice). */
export type ChecksMode = 'refuse' | 'warn';

export interface PlanChecks extends CheckOutcome {
  catalogue: StoredCatalogue | null;
  stale: boolean;
  /** the keys runs did not get back (SyncRunRepository.missingKeys): the mirror's `gone` of these checks, for the dry run's verdicts too */
  missing: MissingKeys;
}

const KEYS = ['key', 'source', 'target', 'parent'];

/** Is the catalogue older than the setting allows, or marked stale by a failure? */
export function isStale(c: StoredCatalogue, settings: Settings, now: Date): boolean {
  return catalogueIsStale(c, settings.catalogue_max_age_minutes, now);
}

/** Runs the checks of a body against what is stored now. */
export async function runChecks(
  m: EntityManager,
  commands: readonly CommandInput[],
  settings: Settings,
  catalogues: CatalogueRepository,
  now: Date,
  temps: CommandRepository,
  issues: IssueRepository,
  runs: SyncRunRepository,
): Promise<PlanChecks> {
  const named = commands.flatMap((c) => [...KEYS.map((k) => c.params[k]), ...(Array.isArray(c.params.keys) ? c.params.keys : [])]).filter((v): v is string => typeof v === 'string');
  const defined = new Set(commands.flatMap((c) => (c.type === 'ensure_issue' && typeof c.params.temp_key === 'string' ? [c.params.temp_key] : [])));
  const resolved = new Map<string, string>();
  for (const t of new Set(named.filter((k) => isTempKey(k) && !defined.has(k)))) {
    const key = await temps.resolvedKey(m, t);
    if (key) resolved.set(t, key);
  }
  const project = named.map((k) => resolved.get(k) ?? k).find(isJiraKey)?.split('-')[0];
  const catalogue = (project ? await catalogues.get(m, project) : null) ?? (await catalogues.get(m));
  const taken = await takenBySummary(m, commands, catalogue?.project_key ?? project, issues);
  // With the keys runs did not get back: a command on an issue Jira no longer has is `unknown` (decision 1449).
  const missing = await runs.missingKeys(m);
  const mirror = await issues.lookup(m, [...named.map((k) => resolved.get(k) ?? k), ...taken.values()], missing);
  const stale = catalogue ? isStale(catalogue, settings, now) : false;
  const outcome = await checkCommands(commands, { rules: COMMAND_RULES, catalogue, stale, customFields: settings.fields, linkWords: settings.link_types, mirror, resolved, taken });
  return { ...outcome, catalogue, stale, missing };
}

/**
 * The temp keys of the body's ensure_issue commands whose summary an issue of the agent's project already
 * has in the mirror, each with the oldest such key (by number): the issue the agent's duplicate search
 * takes instead of creating one. Compared as the agent compares (comparableText); none when the project is unknown.
 */
async function takenBySummary(m: EntityManager, commands: readonly CommandInput[], project: string | undefined, issues: IssueRepository): Promise<Map<string, string>> {
  const creating = commands.flatMap((c) =>
    c.type === 'ensure_issue' && typeof c.params.temp_key === 'string' && typeof c.params.summary === 'string' ? [{ temp: c.params.temp_key, summary: comparableText(c.params.summary) }] : [],
  );
  const taken = new Map<string, string>();
  if (!project || creating.length === 0) return taken;
  const found = await issues.bySummary(m, creating.map((c) => c.summary));
  const number = (key: string) => Number(key.slice(key.lastIndexOf('-') + 1));
  for (const { temp, summary } of creating) {
    const oldest = (found.get(summary) ?? []).filter((k) => k.startsWith(`${project}-`)).sort((a, b) => number(a) - number(b))[0];
    if (oldest) taken.set(temp, oldest);
  }
  return taken;
}

/**
 * The checks mode a body asks for (`refuse` when it says none). `warn` is a person's choice with a
 * client's token: an assistant's body asking for it is refused, by the dry run as by the submit.
 */
export function checksModeOf(asked: ChecksMode | undefined, source: BatchSource): ChecksMode {
  const mode = asked ?? 'refuse';
  if (mode === 'warn' && source === 'assistant') {
    throw new ForbiddenError('checks: "warn" — выбор человека с токеном клиента; ассистент отправляет только планы, прошедшие проверки');
  }
  return mode;
}

/** The findings that refuse a submit: all, or in `warn` mode all but those that depend on the catalogue. */
export const refusing = (findings: readonly Finding[], mode: ChecksMode): Finding[] => (mode === 'warn' ? findings.filter((f) => !CATALOGUE_CODES.includes(f.code)) : [...findings]);

const WITHOUT_PARAM = ['temp_key', 'duplicate_summary'];

/** One line of a refusal's detail: «шаг 3: link_type: …» (the command's place in its batch, decision 1438). */
export const findingLine = (f: Finding): string => `шаг ${f.seq}: ${WITHOUT_PARAM.includes(f.code) ? '' : `${f.param}: `}${f.detail}${f.suggestion ? ` (${f.suggestion})` : ''}`;

/**
 * The 422 of a refused submit, every finding in it. Its code stays what earlier hubs answered for the
 * command catalogue's own rules — `duplicate_summary` when summaries repeat, `validation_failed` when
 * only those rules failed — and is `plan_failed` when Jira's limits or the catalogue refuse the plan.
 */
export function refusal(findings: readonly Finding[], commands: readonly CommandInput[]): Error {
  const lines = findings.map(findingLine);
  const errors: FieldError[] = findings.map((f) => ({ field: WITHOUT_PARAM.includes(f.code) ? 'commands' : `commands.${f.seq - 1}.params`, detail: `${f.param}: ${f.detail}` }));
  const list = [...findings];
  if (findings.some((f) => f.code === 'duplicate_summary')) {
    const detail = [duplicateSummaryDetail(duplicateSummaries(commands)), ...lines.filter((_, i) => findings[i]!.code !== 'duplicate_summary')].join('; ');
    return new DuplicateSummaryError(detail, errors, list);
  }
  if (findings.every((f) => SYNTAX_CODES.includes(f.code))) return new ValidationFailedError(lines.join('; '), errors, list);
  return new PlanFailedError(`план не пройдёт в Jira: ${lines.join('; ')}`, errors, list);
}

/** What a batch keeps of its checks (the batch view's `checks`). */
export function checksView(checks: PlanChecks, mode: ChecksMode): BatchChecksView {
  const counts = Object.fromEntries(CHECK_VERDICTS.map((v) => [v, 0])) as Record<CheckVerdict, number>;
  for (const c of checks.commands) counts[c.verdict] += 1;
  return {
    mode,
    catalogue: checks.catalogue ? { project_key: checks.catalogue.project_key, synced_at: checks.catalogue.synced_at, stale: checks.stale } : null,
    counts,
    commands: checks.commands.map(({ seq, verdict, findings, notes }) => ({ seq, verdict, findings, notes })),
  };
}

/**
 * A submit's checks: the commands as they are to be stored and what the batch keeps of the checks, or
 * the refusal with every finding (nothing is written then).
 */
export async function checkedForSubmit(
  m: EntityManager,
  commands: readonly CommandInput[],
  settings: Settings,
  catalogues: CatalogueRepository,
  now: Date,
  mode: ChecksMode,
  temps: CommandRepository,
  issues: IssueRepository,
  runs: SyncRunRepository,
): Promise<{ commands: CommandInput[]; checks: string }> {
  const checks = await runChecks(m, commands, settings, catalogues, now, temps, issues, runs);
  if (refusing(checks.findings, mode).length > 0) throw refusal(checks.findings, commands);
  return { commands: checks.commands.map((c) => ({ type: c.type, params: c.params })), checks: JSON.stringify(checksView(checks, mode)) };
}
