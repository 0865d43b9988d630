import { useEffect, useState, type ReactNode } from 'react';
import { ApiError } from '../api';
import type { BatchStatus, BatchSummary, CommandStatus } from '../types';
import { BATCH_STATUS, COMMAND_STATUS } from '../words';

export function BatchChip({ status }: { status: BatchStatus }) {
  return <span className={`chip chip-${status}`}>{BATCH_STATUS[status] ?? status}</span>;
}

export function CommandChip({ status }: { status: CommandStatus }) {
  return <span className={`chip chip-${status}`}>{COMMAND_STATUS[status] ?? status}</span>;
}

/** Finished commands of a batch against all of them. */
export function progressOf(b: Pick<BatchSummary, 'counts'>): { finished: number; total: number } {
  const counts = b.counts as Record<string, number>;
  const total = Object.values(counts).reduce((a, n) => a + (n ?? 0), 0);
  return { finished: total - (counts.queued ?? 0) - (counts.claimed ?? 0), total };
}

export function Progress({ batch }: { batch: Pick<BatchSummary, 'counts' | 'status'> }) {
  const { finished, total } = progressOf(batch);
  const pct = total ? Math.round((finished / total) * 100) : 0;
  const failed = ((batch.counts.failed ?? 0) + (batch.counts.skipped ?? 0)) > 0;
  return (
    <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={total} aria-valuenow={finished} aria-label={`${finished} из ${total}`}>
      <div className="progress-track">
        <div className={`progress-bar${failed ? ' progress-warn' : ''}`} style={{ width: `${pct}%` }} />
      </div>
      <span className="progress-text">
        {finished} / {total} · {pct} %
      </span>
    </div>
  );
}

export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const text = error instanceof ApiError ? error.detail : error instanceof Error ? error.message : String(error);
  return (
    <div className="error" role="alert">
      {text}
    </div>
  );
}

export interface ConfirmSpec {
  title: string;
  text: ReactNode;
  confirm: string;
  danger?: boolean;
  /** a reason the person must type (reject) */
  reason?: string;
  run: (reason: string) => Promise<unknown>;
}

/** A button that asks before it acts; the hub's refusal (its Russian `detail`) stays in the dialog. */
/**
 * `show`: whether the action applies now. A dialog already open stays open when it stops applying (a
 * live update came meanwhile): the person confirms and reads the hub's answer, or cancels.
 */
export function ConfirmButton({ label, spec, className, show = true }: { label: string; spec: ConfirmSpec; className?: string; show?: boolean }) {
  const [open, setOpen] = useState(false);
  if (!show && !open) return null;
  return (
    <>
      {show && (
        <button type="button" className={className ?? 'btn'} onClick={() => setOpen(true)}>
          {label}
        </button>
      )}
      {open && <ConfirmDialog spec={spec} onClose={() => setOpen(false)} />}
    </>
  );
}

export function ConfirmDialog({ spec, onClose }: { spec: ConfirmSpec; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  const go = async () => {
    setBusy(true);
    setError(null);
    try {
      await spec.run(reason.trim());
      onClose();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <div className="overlay" onClick={onClose}>
      <div className="dialog" role="dialog" aria-modal="true" aria-label={spec.title} onClick={(e) => e.stopPropagation()}>
        <h3>{spec.title}</h3>
        <div className="dialog-text">{spec.text}</div>
        {spec.reason !== undefined && (
          <label className="field">
            <span>{spec.reason}</span>
            <textarea value={reason} onChange={(e) => setReason(e.target.value)} rows={3} autoFocus />
          </label>
        )}
        <ErrorBox error={error} />
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose}>
            Отмена
          </button>
          <button
            type="button"
            className={spec.danger ? 'btn btn-danger' : 'btn btn-primary'}
            disabled={busy || (spec.reason !== undefined && !reason.trim())}
            onClick={go}
          >
            {spec.confirm}
          </button>
        </div>
      </div>
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}
