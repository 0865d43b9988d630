/** The issue view's history (SPEC 17): every change the hub made to the issue — batch, author, approver, before → after. */
import { useEffect, useState } from 'react';
import { api } from '../api';
import { when } from '../format';
import { batchHref } from '../router';
import type { IssueChange } from '../types';
import { changeLabel, ChangeDiff, changesNameAssignee, useCataloguePeople, useChangeBoards } from './Changes';
import { Empty, ErrorBox } from './ui';
import { personName, whoMade } from '../words';

export function IssueChanges({ issueKey }: { issueKey: string }) {
  const [list, setList] = useState<IssueChange[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const boards = useChangeBoards(list ?? []);
  const people = useCataloguePeople(changesNameAssignee(list ?? []));
  useEffect(() => {
    let live = true;
    api.get<IssueChange[]>(`/issues/${encodeURIComponent(issueKey)}/changes`).then(
      (l) => live && setList(l),
      (err) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, [issueKey]);

  return (
    <section className="panel" aria-label="Изменения хаба">
      <h3>Изменения хаба</h3>
      <ErrorBox error={error} />
      {list === null ? (
        !error && <div className="muted">Загрузка…</div>
      ) : list.length === 0 ? (
        <Empty>Хаб ещё не менял эту задачу.</Empty>
      ) : (
        <table className="table change-record responsive">
          <thead>
            <tr>
              <th>Когда</th>
              <th>Пакет</th>
              <th>Автор</th>
              <th>Одобрил</th>
              <th>Что</th>
              <th>Было → стало</th>
            </tr>
          </thead>
          <tbody>
            {[...list].reverse().map((c, i) => (
              <tr key={i}>
                <td data-label="Когда">{when(c.recorded_at)}</td>
                <td data-label="Пакет">
                  <a href={batchHref(c.batch_id)}>
                    #{c.batch_id} {c.batch_title}
                  </a>
                </td>
                <td data-label="Автор">{whoMade(c)}</td>
                <td data-label="Одобрил">{c.approved_by ? personName(c.approved_by) : '—'}</td>
                <td data-label="Что">{changeLabel(c.what)}</td>
                <td data-label="Было → стало">
                  {/* One item of the phone's labelled line (a flex row): its words wrap as one text, none squeezed apart. */}
                  <span>
                    <ChangeDiff c={c} boards={boards} people={people} />
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
