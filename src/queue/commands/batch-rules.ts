/**
 * Batch-level rules of SPEC 4 and 5 (pure): duplicate summaries, temp-key definitions, the tail
 * refresh, and the estimate.
 */
import { comparableText, isTempKey } from '../../common/index.js';
import { keyParams, keysNamed, pacedAs, READ_TYPES, tempKeysNeeded, type CommandType, type PacedType, type Params } from '@jira-hub/contracts/catalogue';

export interface CommandInput {
  type: CommandType;
  params: Params;
}

/** Summaries (trimmed at both ends, case kept) of two or more ensure_issue commands, in order of first appearance. */
export function duplicateSummaries(commands: readonly CommandInput[]): string[] {
  // Compared as the agent compares them (comparableText: two Unicode spellings of «Отчёт» are one summary), named as first written.
  const seen = new Map<string, { text: string; n: number }>();
  for (const c of commands) {
    if (c.type !== 'ensure_issue' || typeof c.params.summary !== 'string') continue;
    const key = comparableText(c.params.summary);
    const s = seen.get(key) ?? { text: c.params.summary.trim(), n: 0 };
    seen.set(key, { ...s, n: s.n + 1 });
  }
  return [...seen.values()].filter((s) => s.n > 1).map((s) => s.text);
}

/**
 * SPEC 12, byte for byte: the detail contains `повторяется тема ensure_issue: «<summary>»` for each repeated
 * one; SPEC 5: several, comma-separated.
 */
export function duplicateSummaryDetail(summaries: readonly string[]): string {
  return summaries.map((s) => `повторяется тема ensure_issue: «${s}»`).join(', ');
}

/** The 422 detail of a temp key used before its definer (`definerIndex` from 0). */
export const usedBeforeDefinerDetail = (tempKey: string, definerIndex: number) =>
  `временный ключ ${tempKey} используется раньше, чем его создаёт ensure_issue (шаг ${definerIndex + 1}); ` +
  `в пакете, который определяет ${tempKey}, этот ключ означает задачу из этой ensure_issue, даже если ${tempKey} уже создан прошлым пакетом, — ` +
  `поставьте команду после ensure_issue или дайте новой задаче другой временный ключ`;

export interface TempKeyCheck {
  /** `param`: the command's param that holds the temp key (`keys` for a refresh's list) */
  problems: { index: number; param: string; detail: string }[];
  /** Temp keys used but not defined in the batch: they must be resolved by an earlier batch. */
  external: string[];
}

/**
 * SPEC 4: a temp key used in a batch is defined by an ensure_issue with a smaller seq, or (when the
 * batch does not define it at all) resolved by an earlier batch; never defined twice.
 *
 * A use BEFORE the batch's own definer is refused even when an earlier batch resolved the key:
 * within a batch that defines a temp key, the key stands for the issue that definer creates (SPEC
 * 6.3 resolves the batch's own definer first), so the use would wait for a definer queued after it,
 * and reading it as the earlier issue instead would make one temp key name two issues in one batch.
 */
export function checkTempKeys(commands: readonly CommandInput[]): TempKeyCheck {
  const definedAt = new Map<string, number>();
  commands.forEach((c, index) => {
    if (c.type === 'ensure_issue' && isTempKey(c.params.temp_key) && !definedAt.has(c.params.temp_key)) definedAt.set(c.params.temp_key, index);
  });
  const problems: TempKeyCheck['problems'] = [];
  const external = new Set<string>();
  const defined = new Set<string>();
  commands.forEach((c, index) => {
    for (const t of tempKeysNeeded(c.type, c.params)) {
      const at = definedAt.get(t);
      const param = keyParams(c.type).find((name) => c.params[name] === t) ?? 'keys';
      if (at === undefined) external.add(t);
      else if (at === index) problems.push({ index, param, detail: `ensure_issue не может быть родителем самой себя: parent совпадает с её temp_key ${t}` });
      else if (at > index) problems.push({ index, param, detail: usedBeforeDefinerDetail(t, at) });
    }
    if (c.type === 'ensure_issue' && isTempKey(c.params.temp_key)) {
      if (defined.has(c.params.temp_key)) problems.push({ index, param: 'temp_key', detail: `временный ключ ${c.params.temp_key} определён дважды` });
      defined.add(c.params.temp_key);
    }
  });
  return { problems, external: [...external] };
}

/** Keys of the tail refresh: every key and temp key the batch names, in order of first appearance, without repeats. */
export function tailRefreshKeys(commands: readonly CommandInput[]): string[] {
  return [...new Set(commands.flatMap((c) => keysNamed(c.type, c.params)))];
}

/**
 * The batch as stored: the given commands plus one tail refresh unless every command only reads
 * (refresh, refresh_catalogue: SPEC 5, 16.1) or the batch names no key at all.
 */
export function withTailRefresh(commands: readonly CommandInput[]): CommandInput[] {
  const keys = tailRefreshKeys(commands);
  if (commands.every((c) => READ_TYPES.includes(c.type)) || keys.length === 0) return [...commands];
  return [...commands, { type: 'refresh', params: { keys } }];
}

/** Sum of the pacing pause of each command's type (SPEC 5, 6.8; refresh_catalogue as refresh, 16.1). */
export function pauseSum(types: readonly CommandType[], pacing: Readonly<Record<PacedType, number>>): number {
  return types.reduce((sum, t) => sum + (pacing[pacedAs(t)] ?? 0), 0);
}
