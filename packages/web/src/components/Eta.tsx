/** A batch's time left, ticking from the page's clock; honest when the agent is away or the batch will not run. */
import { useNow } from '../clock';
import { clock, duration } from '../format';
import type { BatchSummary } from '../types';
import { isOnline, useAgent } from './AgentStrip';

/** `read_at`: when the page read `remaining_seconds` (the hub's count then; the page counts down from it). */
export type Timed<T> = T & { read_at: number };
export const timed = <T,>(b: T, at = Date.now()): Timed<T> => ({ ...b, read_at: at });

export function Eta({ batch }: { batch: Timed<Pick<BatchSummary, 'status' | 'remaining_seconds'>> }) {
  const now = useNow();
  const { agent } = useAgent();
  if (batch.status === 'awaiting_approval') return <>после одобрения</>;
  if (batch.status === 'done' || batch.status === 'cancelled') return <span className="muted">—</span>;
  // Before the count: a batch of zero pauses left is no less stuck while the agent is away.
  if (agent && !isOnline(agent)) return <span className="warn-text">стоит: агент не на связи</span>;
  if (batch.remaining_seconds <= 0) return <span className="muted">—</span>;
  const end = batch.read_at + batch.remaining_seconds * 1000;
  const left = Math.max(0, (end - now) / 1000);
  return (
    <>
      {left > 0 ? `≈ ${duration(left)}` : 'вот-вот'} <span className="muted">(к {clock(new Date(end).toISOString())})</span>
    </>
  );
}
