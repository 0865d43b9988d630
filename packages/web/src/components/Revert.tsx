/** The batch page's revert (SPEC 17.2): the dry run first — the inverse commands and the conflicts — then the new batch. */
import { useState } from 'react';
import { api } from '../api';
import { useHub } from '../context';
import { go } from '../router';
import type { BatchView } from '../types';
import { describeCommand } from '../words';
import { changeLabel, changeValue } from './Changes';
import { ErrorBox } from './ui';

interface RevertView {
  dry_run: boolean;
  revert_of: number;
  title: string;
  commands: { type: string; params: Record<string, unknown> }[];
  conflicts: { key: string | null; what: string; expected: unknown; actual?: unknown; detail: string }[];
  /** the checks of every submit (SPEC 16.2): false — the revert itself would be refused with these findings */
  ok: boolean;
  findings: { seq: number; detail: string }[];
  batch: BatchView | null;
}

export function RevertButton({ batch }: { batch: Pick<BatchView, 'id' | 'status' | 'changes'> }) {
  const { settings } = useHub();
  const [plan, setPlan] = useState<RevertView | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  if (batch.status !== 'done' || Object.keys(batch.changes ?? {}).length === 0) return null;

  const preview = async () => {
    setError(null);
    setBusy(true);
    try {
      setPlan(await api.post<RevertView>(`/batches/${batch.id}/revert?dry_run=true`));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const revert = async () => {
    setBusy(true);
    setError(null);
    try {
      const made = await api.post<RevertView>(`/batches/${batch.id}/revert`);
      setPlan(null);
      if (made.batch) go(`#/batch/${made.batch.id}`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const close = () => {
    setPlan(null);
    setError(null);
  };

  return (
    <>
      <button type="button" className="btn btn-danger-outline" onClick={preview} disabled={busy}>
        Откатить…
      </button>
      {!plan && <ErrorBox error={error} />}
      {plan && (
        <div className="overlay" onClick={close}>
          <div className="dialog dialog-wide" role="dialog" aria-modal="true" aria-label={plan.title} onClick={(e) => e.stopPropagation()}>
            <h3>{plan.title}</h3>
            <div className="dialog-text">
              {plan.commands.length === 0 ? (
                <p>Откатывать нечего.</p>
              ) : (
                <>
                  <p>Хаб создаст пакет из {plan.commands.length} обратных команд (новые изменения откатываются первыми):</p>
                  <ol className="revert-commands">
                    {plan.commands.map((c, i) => (
                      <li key={i}>{describeCommand(c, settings.link_types)}</li>
                    ))}
                  </ol>
                </>
              )}
              {plan.conflicts.length > 0 && (
                <>
                  <p>Не будут откачены — их изменили после пакета, хаб оставит их как есть:</p>
                  <ul className="revert-conflicts">
                    {plan.conflicts.map((c, i) => (
                      <li key={i}>
                        {c.key ?? '—'}: {changeLabel(c.what)} — сейчас {changeValue(c.actual, c.what)}, пакет оставил {changeValue(c.expected, c.what)}
                      </li>
                    ))}
                  </ul>
                </>
              )}
              {!plan.ok && (
                <>
                  <p className="warn-text">Хаб не примет этот откат: обратные команды не проходят проверку по каталогу Jira. Поправьте причину (например, настройки отката) и попробуйте снова.</p>
                  <ul className="revert-findings">
                    {plan.findings.map((f, i) => (
                      <li key={i}>
                        команда {f.seq}: {f.detail}
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </div>
            <ErrorBox error={error} />
            <div className="dialog-actions">
              <button type="button" className="btn" onClick={close}>
                Отмена
              </button>
              <button type="button" className="btn btn-danger" disabled={busy || plan.commands.length === 0 || !plan.ok} onClick={revert}>
                Создать пакет отката
              </button>
            </div>
          </div>
        </div>
      )}
    </>
  );
}
