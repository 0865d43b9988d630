/**
 * Rules for the custom field names of settings `fields` (SPEC 9): the names an `ensure_fields` may set
 * besides the standard fields. Pure: no Nest, no ORM.
 */
import { STANDARD_PARAM_NAMES } from '@jira-hub/contracts/catalogue';
import { BUILT_IN_KEYS } from '../common/index.js';

/**
 * Names that cannot be custom fields: every standard param of every command type (key params such as
 * `key`, `source`, `target`, `parent`, `temp_key`; the standard fields `summary`, `labels`, ...; and the
 * rest: `issue_type`, `path`, `keys`, `jql`, ...). In an `ensure_fields` a custom `key` or `summary` would
 * be read as the standard param; the others would make a batch ambiguous to the person reading it.
 * Nor can the names of the members of `Object.prototype` (`__proto__`, `constructor`, `toString`, …): the
 * validation refuses them as keys of any body's params (BUILT_IN_KEYS), so such a field could never be set.
 * Compared exactly, as the catalogue compares param names: `Summary` is a different name.
 */
export const RESERVED_FIELD_NAMES: ReadonlySet<string> = new Set([...STANDARD_PARAM_NAMES, ...BUILT_IN_KEYS]);

const quoted = (names: Iterable<string>): string => [...names].map((n) => `«${n}»`).join(', ');

/** What is wrong with a list of custom field names, as one Russian sentence naming the names; null when nothing is. */
export function customFieldNameProblems(names: readonly string[]): string | null {
  const reserved = new Set<string>();
  const builtIn = new Set<string>();
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const name of names) {
    if (BUILT_IN_KEYS.has(name)) builtIn.add(name);
    else if (RESERVED_FIELD_NAMES.has(name)) reserved.add(name);
    else if (seen.has(name)) repeated.add(name);
    seen.add(name);
  }
  const problems: string[] = [];
  // Worded like the duplicate-summary detail of SPEC 12 («…», several comma-separated).
  if (reserved.size) problems.push(`имя стандартного параметра команд не может быть именем поля: ${quoted(reserved)}`);
  if (builtIn.size) problems.push(`так называются встроенные свойства объектов, поле с таким именем задать нельзя: ${quoted(builtIn)}`);
  if (repeated.size) problems.push(`повторяется имя поля: ${quoted(repeated)}`);
  return problems.length ? problems.join('; ') : null;
}
