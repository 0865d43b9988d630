/**
 * When the hub no longer trusts its catalogue of Jira (SPEC 16.1): marked stale by a command Jira refused
 * for a screen, field, transition or permission, or older than settings `catalogue_max_age_minutes`. One
 * rule for the submit's checks, GET /catalogue and a settings change.
 */
export function catalogueIsStale(c: { stale_since: string | null; synced_at: string }, maxAgeMinutes: number, now: Date): boolean {
  return c.stale_since !== null || now.getTime() - Date.parse(c.synced_at) > maxAgeMinutes * 60_000;
}
