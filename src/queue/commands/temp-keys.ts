/** Temp-key substitution before a command is handed out (SPEC 6.3). Pure. */
import { isTempKey } from '../../common/index.js';
import { keyParams, type CommandType, type Params } from '@jira-hub/contracts/catalogue';

/** What is known of a temp key when a command needing it comes up. */
export type Resolution =
  | { state: 'resolved'; key: string }
  /** its definer is not terminal yet: its turn is still coming */
  | { state: 'pending' }
  /** its definer ended without a key */
  | { state: 'failed' };

export type Substitution =
  | { kind: 'ready'; params: Params }
  /** a needed temp key's definer has not ended yet */
  | { kind: 'wait' }
  | { kind: 'skip'; error: string };

export const notCreatedError = (tempKey: string) => `задача ${tempKey} не создана`;

/**
 * Substitutes resolved temp keys in the type's key params (`key`, `source`, `target`, `parent`, each
 * only where the type has it) and `refresh.keys`.
 * A pending one → wait; a failed one → skip with the first such key (a refresh drops it instead,
 * and is skipped only when no key remains).
 */
export function substitute(type: CommandType, params: Params, resolve: (tempKey: string) => Resolution): Substitution {
  const out: Params = { ...params };
  for (const name of keyParams(type)) {
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    if (!isTempKey(value)) continue;
    const r = resolve(value);
    if (r.state === 'pending') return { kind: 'wait' };
    if (r.state === 'failed') return { kind: 'skip', error: notCreatedError(value) };
    out[name] = r.key;
  }
  if (type === 'refresh' && Object.hasOwn(params, 'keys') && Array.isArray(params.keys)) {
    const keys: string[] = [];
    let firstDropped: string | undefined;
    for (const k of params.keys as string[]) {
      if (!isTempKey(k)) {
        keys.push(k);
        continue;
      }
      const r = resolve(k);
      if (r.state === 'pending') return { kind: 'wait' };
      if (r.state === 'resolved') keys.push(r.key);
      else firstDropped ??= k;
    }
    if (keys.length === 0) return { kind: 'skip', error: notCreatedError(firstDropped ?? String(params.keys[0])) };
    out.keys = [...new Set(keys)];
  }
  return { kind: 'ready', params: out };
}
