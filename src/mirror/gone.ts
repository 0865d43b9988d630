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
