/** The batch page's revert (SPEC 17.2): the dry run first — the inverse commands and the conflicts — then the new batch. */
import { useRef, useState } from 'react';
import { api, ApiError } from '../api';
import { useHub } from '../context';
import { plural } from '../format';
import { batchHref, go } from '../router';
import type { BatchView } from '../types';
import { describeCommand } from '../words';
import { changeLabel, commandsNameAssignee, commandsNameBoard, useCatalogueBoards, useCataloguePeople } from './Changes';
import { ErrorBox, Modal } from './ui';

interface RevertView {
  dry_run: boolean;
  revert_of: number;
  title: string;
  commands: { type: string; params: Record<string, unknown> }[];
  /**
   * `detail`: the hub's own words for why the subject is left alone; `retry_later`: not final — the mirror has not
   * seen the change yet, or a batch not yet finished changes it (decision 1467): the hub makes the revert while one
   * is listed only with `leave_pending`
   */
  conflicts: { key: string | null; what: string; expected: unknown; actual?: unknown; detail: string; retry_later: boolean }[];
  /**
   * the fingerprint of the `retry_later` conflicts listed (null: none): sent as `leave_pending`, it leaves exactly the
   * ones the person saw, and the hub refuses (409) when the list has changed since (decision 1491)
   */
  pending_token: string | null;
  /** the checks of every submit (SPEC 16.2): false — the revert itself would be refused with these findings */
  ok: boolean;
  findings: { seq: number; detail: string }[];
  /** the inverse commands the checks could not judge (verdict unknown), with why */
  unchecked: { seq: number; notes: string[] }[];
  batch: BatchView | null;
}

/** How many command numbers a line names before «и ещё N». */
const SEQS_SHOWN = 10;

/** The unjudged commands, those of the same reasons together (a stale catalogue gives every one the same). */
function byReason(unchecked: RevertView['unchecked']): { why: string; seqs: string }[] {
  const groups = new Map<string, number[]>();
  for (const u of unchecked) {
    const why = u.notes.join('; ');
    groups.set(why, [...(groups.get(why) ?? []), u.seq]);
  }
  return [...groups].map(([why, seqs]) => {
    const named = seqs.slice(0, SEQS_SHOWN).join(', ');
    const more = seqs.length > SEQS_SHOWN ? ` и ещё ${seqs.length - SEQS_SHOWN}` : '';
    return { why, seqs: `${seqs.length === 1 ? 'шаг' : 'шаги'} ${named}${more}` };
  });
}

export function RevertButton({ batch }: { batch: Pick<BatchView, 'id' | 'status' | 'changes'> }) {
  const { settings } = useHub();
  const [plan, setPlan] = useState<RevertView | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  /** the person chose to revert the rest now and leave the conflicts not yet decided for good */
  const [leave, setLeave] = useState(false);
  /** the revert was refused as those conflicts changed since the dry run shown: the plan is the new one */
  const [changed, setChanged] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  // An inverse ensure_sprint names its sprint's board by id: by the catalogue's name, as the conflicts do.
  // A hook: called on every render, before the return below (the batch finishes while its page is open).
  const boards = useCatalogueBoards(commandsNameBoard(plan?.commands ?? []));
  const people = useCataloguePeople(commandsNameAssignee(plan?.commands ?? []));
  // A finished batch: done, or cancelled after some of its commands changed Jira (the hub answers 409 while one is still with the agent).
  if ((batch.status !== 'done' && batch.status !== 'cancelled') || Object.keys(batch.changes ?? {}).length === 0) return null;

  const dryRun = () => api.post<RevertView>(`/batches/${batch.id}/revert?dry_run=true`);
  const preview = async () => {
    setError(null);
    setChanged(false);
    setBusy(true);
    try {
      setLeave(false);
      setPlan(await dryRun());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const revert = async () => {
    setBusy(true);
    setError(null);
    setChanged(false);
    // The person agreed to leave the conflicts this dry run listed, not whatever is pending by now: its token says which.
    const sent = leave ? (plan?.pending_token ?? null) : null;
    try {
      const made = await api.post<RevertView>(`/batches/${batch.id}/revert${sent ? `?leave_pending=${encodeURIComponent(sent)}` : ''}`);
      setPlan(null);
      if (made.batch) go(batchHref(made.batch.id));
    } catch (err) {
      // Refused as the list changed since (409, decision 1491): the dialog shows the list as it is now, for the person to decide again.
      if (sent && err instanceof ApiError && err.status === 409) {
        try {
          const fresh = await dryRun();
          if (fresh.pending_token !== sent) {
            setPlan(fresh);
            setLeave(false);
            setChanged(true);
            return;
          }
        } catch {
          // the refusal itself says what is wrong
        }
      }
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const close = () => {
    setPlan(null);
    setError(null);
    setChanged(false);
    opener.current?.focus(); // it was disabled while the dry run ran, so the dialog may not have found it focused
  };

  const conflictText = (c: RevertView['conflicts'][number]) => c.detail || `${c.key ?? '—'}: ${changeLabel(c.what)}`;
  const final = plan?.conflicts.filter((c) => !c.retry_later) ?? [];
  const later = plan?.conflicts.filter((c) => c.retry_later) ?? [];
  // While a conflict is not yet decided, the revert is made only when the person chooses to leave it (the hub refuses it otherwise).
  const blocked = later.length > 0 && !leave;

  return (
    <>
      <button type="button" ref={opener} className="btn btn-danger-outline" onClick={preview} disabled={busy}>
        Откатить…
      </button>
      {!plan && <ErrorBox error={error} />}
      {plan && (
        <Modal title={plan.title} onClose={close} className="dialog-wide">
          <h2 className="dialog-title">{plan.title}</h2>
          <div className="dialog-text">
            {changed && (
              <p className="warn-text" role="alert">
                Пакет отката не создан: пока вы смотрели, список изменений, которые пока не откатить, изменился. Ниже — план, каким он стал; решите снова.
              </p>
            )}
            {plan.commands.length === 0 ? (
              <p>{later.length > 0 ? 'Откатывать пока нечего.' : 'Откатывать нечего.'}</p>
            ) : (
              <>
                <p>
                  Хаб создаст пакет из {plan.commands.length} {plural(plan.commands.length, 'обратной команды', 'обратных команд', 'обратных команд')} (новые изменения
                  откатываются первыми):
                </p>
                <ol className="revert-commands">
                  {plan.commands.map((c, i) => (
                    <li key={i}>{describeCommand(c, settings.link_types, boards, people)}</li>
                  ))}
                </ol>
              </>
            )}
            {final.length > 0 && (
              <>
                <p>Не будут откачены — хаб оставит их как есть:</p>
                <ul className="revert-conflicts">
                  {final.map((c, i) => (
                    <li key={i}>{conflictText(c)}</li>
                  ))}
                </ul>
              </>
            )}
            {later.length > 0 && (
              <>
                <p className="warn-text">
                  Пока не откатить — обновите эти задачи в зеркале или дождитесь названных пакетов и нажмите «Откатить…» снова. Пакет откатывают один раз: откат,
                  созданный сейчас, оставит их неоткаченными насовсем.
                </p>
                <ul className="revert-later">
                  {later.map((c, i) => (
                    <li key={i}>{conflictText(c)}</li>
                  ))}
                </ul>
                {plan.commands.length > 0 && (
                  <label className="check">
                    <input type="checkbox" checked={leave} onChange={(e) => setLeave(e.target.checked)} />
                    Откатить остальное сейчас, а {later.length === 1 ? 'это изменение' : 'эти изменения'} оставить как есть
                  </label>
                )}
              </>
            )}
            {!plan.ok && (
              <>
                <p className="warn-text">Хаб не примет этот откат: обратные команды не проходят проверку по каталогу Jira. Поправьте причину (например, настройки отката) и попробуйте снова.</p>
                <ul className="revert-findings">
                  {plan.findings.map((f, i) => (
                    <li key={i}>
                      шаг {f.seq}: {f.detail}
                    </li>
                  ))}
                </ul>
              </>
            )}
            {plan.ok && plan.unchecked.length > 0 && (
              <>
                <p className="warn-text">
                  По каталогу Jira не проверить {plan.unchecked.length} из {plan.commands.length}{' '}
                  {plural(plan.commands.length, 'обратной команды', 'обратных команд', 'обратных команд')}: хаб примет откат, а выполнимы ли они, агент узнает уже в Jira.
                </p>
                <ul className="revert-unchecked">
                  {byReason(plan.unchecked).map((g) => (
                    <li key={g.why}>
                      {g.seqs}: {g.why}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </div>
          <ErrorBox error={error} />
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={close}>
              Не откатывать
            </button>
            <button type="button" className="btn btn-danger" disabled={busy || plan.commands.length === 0 || !plan.ok || blocked} onClick={revert}>
              Создать пакет отката
            </button>
          </div>
        </Modal>
      )}
    </>
  );
}
