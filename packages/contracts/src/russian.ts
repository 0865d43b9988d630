/**
 * Russian grammar the hub's and the dashboard's texts share (`@jira-hub/contracts/russian`): one rule for
 * the API's and MCP's answers and for the dashboard, so the two never word a count differently.
 * Dependency-free, like the catalogue.
 */

/** The Russian form of a noun after the number `n`: 1 команда, 2 команды, 5 команд, 21 команда, 11 команд, 112 команд. */
export function plural(n: number | bigint, one: string, few: string, many: string): string {
  const a = Math.abs(Number(typeof n === 'bigint' ? n % 100n : n % 100));
  const b = a % 10;
  if (a > 10 && a < 20) return many;
  if (b === 1) return one;
  if (b >= 2 && b <= 4) return few;
  return many;
}
