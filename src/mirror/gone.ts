/**
 * Which issues of the mirror Jira no longer has (SPEC 7: the mirror keeps them). The one rule plans, drift
 * and the dry run's verdicts share: a finished run by keys asked for the key and did not get it back (a
 * refresh's `missing_keys`, or a failed command's 404, decision 1448) after the mirror last read the issue.
 * A later refresh that finds the issue again writes it anew, and it is no longer gone. Pure.
 */

/** The keys finished runs by keys did not get back, each with the newest such run and when it finished (SyncRunRepository.missingKeys). */
export type MissingKeys = ReadonlyMap<string, { run: number; at: string }>;

/** The run that found `key` gone from Jira after the mirror read it (`syncedAt`), if one did. */
export function goneRun(missing: MissingKeys, key: string, syncedAt: string | null | undefined): number | undefined {
  const found = missing.get(key);
  return found && syncedAt && found.at > syncedAt ? found.run : undefined;
}

/** Commands whose agent takes an issue Jira no longer has as nothing to do (remove.ts: `{deleted|removed: false}`), not as a failure. */
const DONE_WHEN_GONE: readonly string[] = ['delete_issue', 'remove_link', 'remove_comment'];

/**
 * Why a command naming issues Jira no longer has is not judged by the mirror's last copy — the dry run's
 * `cannot_judge` reason and the checks' note (SPEC 16.2) alike: the run that found each gone, named neutrally
 * (a refresh's or a failed command's, decision 1448), as a package plan's `gone_from_jira` names it, and what
 * the agent would do (`type`: a removal finds nothing to remove, any other command fails). Pure.
 */
export function goneWhy(gone: readonly { key: string; run: number }[], type: string): string {
  const runs = [...new Set(gone.map((g) => g.run))].sort((a, b) => a - b).map((r) => `#${r}`);
  const reads = `${runs.length === 1 ? 'чтение' : 'чтения'} ${runs.join(', ')} в /sync-runs`;
  const keys = gone.map((g) => g.key).join(', ');
  const outcome = DONE_WHEN_GONE.includes(type) ? 'агент сочтёт команду выполненной, ничего не удалив' : 'команда завершится ошибкой';
  return gone.length === 1
    ? `задачи ${keys} в Jira больше нет: Jira её не нашла (${reads}) — ${outcome}; уберите её из пакета или обновите задачу в зеркале, если она вернулась`
    : `задач ${keys} в Jira больше нет: Jira их не нашла (${reads}) — ${outcome}; уберите её из пакета или обновите эти задачи в зеркале, если они вернулись`;
}

/** goneWhy's words: the hub's own, Jira keys and run numbers only (MCP shows them as they are). */
export const GONE_WHY =
  /^задачи? [A-Z][A-Z0-9_]*-\d+(, [A-Z][A-Z0-9_]*-\d+)* в Jira больше нет: Jira (её|их) не нашла \(чтени[ея] #\d+(, #\d+)* в \/sync-runs\) — (команда завершится ошибкой|агент сочтёт команду выполненной, ничего не удалив); [^«»"]+$/;
