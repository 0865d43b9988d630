/**
 * The checks a batch was submitted with (SPEC 16.2) on its page — most of all on the approval page: the
 * commands nobody could judge against the catalogue (`unknown`) and the warnings a client chose to keep.
 */
import { paramLabel } from '../words';

interface Finding {
  seq: number;
  param: string;
  detail: string;
  suggestion?: string;
}

/** What the page reads of a batch view's `checks`. */
export interface BatchChecks {
  mode: 'refuse' | 'warn';
  catalogue: { project_key: string; synced_at: string; stale: boolean } | null;
  counts: { will_change: number; no_change: number; will_fail: number; unknown: number };
  commands: { seq: number; verdict: string; findings: Finding[]; notes: string[] }[];
}

export function BatchChecksPanel({ checks }: { checks: BatchChecks | null | undefined }) {
  if (!checks) return null;
  const unknown = checks.commands.filter((c) => c.verdict === 'unknown');
  const warned = checks.commands.filter((c) => c.findings.length > 0);
  const catalogue = checks.catalogue
    ? `по каталогу Jira ${checks.catalogue.project_key}${checks.catalogue.stale ? ' (устаревшему)' : ''}`
    : 'без каталога Jira: проверки по нему не выполнялись';
  return (
    <div className="panel" aria-label="Проверки плана">
      <div className="strong">
        Проверки плана {catalogue}: изменят Jira — {checks.counts.will_change}, уже так — {checks.counts.no_change}, не выполнятся — {checks.counts.will_fail}, не оценить — {checks.counts.unknown}
        {checks.mode === 'warn' ? `, с предупреждениями — ${warned.length}` : ''}
      </div>
      {unknown.length > 0 && (
        <ul className="small">
          {unknown.map((c) => (
            <li key={`u${c.seq}`}>
              шаг {c.seq}: не оценить — {c.notes.join('; ') || 'нет данных в каталоге'}
            </li>
          ))}
        </ul>
      )}
      {warned.length > 0 && (
        <ul className="small warn">
          {warned.flatMap((c) =>
            c.findings.map((f, i) => (
              <li key={`w${c.seq}-${i}`}>
                шаг {f.seq}: {paramLabel(f.param)}: {f.detail}
                {f.suggestion ? ` (${f.suggestion})` : ''}
              </li>
            )),
          )}
        </ul>
      )}
    </div>
  );
}
