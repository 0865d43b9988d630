/** The change record (SPEC 17.1) for people: what a batch did to Jira, field by field, before → after. */
import type { Catalogue, CatalogueBoard, CatalogueUser } from '@jira-hub/contracts';
import { boardWords, namesSprintBoard } from '@jira-hub/contracts/russian';
import { useEffect, useState } from 'react';
import { api } from '../api';
import type { RecordedChange } from '../types';
import { fieldLabel, personWords } from '../words';

/** The catalogue's boards, which name a sprint's board (undefined: not read, or no catalogue yet). */
type Boards = readonly CatalogueBoard[] | undefined;
/** The catalogue's assignable people, who name an account id (undefined: not read, or no catalogue yet). */
export type People = readonly CatalogueUser[] | undefined;

/**
 * The catalogue's boards (GET /catalogue, once for the whole list) when a sprint change names its board by
 * id; else nothing is read. No catalogue yet, or the hub refuses: undefined, and the boards show by id.
 */
export const useChangeBoards = (changes: readonly RecordedChange[]): Boards => useCatalogueBoards(namesSprintBoard(changes));

/** Commands of which one moves to a sprint of a board given by its id (a revert's: the board the catalogue lists the sprint under). */
export const commandsNameBoard = (commands: readonly { type: string; params: Record<string, unknown> }[]): boolean =>
  commands.some((c) => c.type === 'ensure_sprint' && typeof c.params.board === 'number');

/**
 * GET /catalogue, one request for all who ask while it is in flight: a page's components that name boards and
 * people (the batch, its changes, its plan) read it at the same moment. Settled, the next asker reads anew.
 */
let reading: Promise<{ catalogue: Partial<Catalogue> | null }> | null = null;
function readCatalogue(): Promise<{ catalogue: Partial<Catalogue> | null }> {
  reading ??= api.get<{ catalogue: Partial<Catalogue> | null }>('/catalogue').finally(() => (reading = null));
  return reading;
}

/** A list of the catalogue when `needed` (a text names something by its id), read once; undefined otherwise, or with no catalogue. */
function useCatalogueList<K extends 'boards' | 'assignable'>(needed: boolean, list: K): Catalogue[K] | undefined {
  const [found, setFound] = useState<Catalogue[K] | undefined>(undefined);
  useEffect(() => {
    if (!needed) return;
    let live = true;
    readCatalogue().then(
      (state) => live && setFound(state.catalogue?.[list]),
      () => undefined, // the ids stay
    );
    return () => {
      live = false;
    };
  }, [needed, list]);
  return found;
}

/** The catalogue's boards when `needed` (a text names a board by its id), read once; undefined otherwise, or with no catalogue. */
export const useCatalogueBoards = (needed: boolean): Boards => useCatalogueList(needed, 'boards');

/** The catalogue's assignable people when `needed` (a text names an assignee by account id), read once; undefined otherwise. */
export const useCataloguePeople = (needed: boolean): People => useCatalogueList(needed, 'assignable');

/** Commands of which one sets an assignee (an account id, which `people` name). */
export const commandsNameAssignee = (commands: readonly { params: Record<string, unknown> }[]): boolean => commands.some((c) => typeof c.params.assignee === 'string');

/** Changes of the record of which one is an assignee's. */
export const changesNameAssignee = (changes: readonly RecordedChange[]): boolean => changes.some((c) => c.what === 'field:assignee');

const KIND_LABEL: Record<string, string> = {
  status: 'Статус',
  sprint: 'Спринт',
  link: 'Связь создана',
  comment: 'Комментарий добавлен',
  issue: 'Задача создана',
  link_removed: 'Связь удалена',
  comment_removed: 'Комментарий удалён',
  issue_deleted: 'Задача удалена',
};

/** «Срок», «Статус», a custom field by its own name. */
export function changeLabel(what: string): string {
  if (what.startsWith('field:')) {
    return fieldLabel(what.slice('field:'.length));
  }
  return KIND_LABEL[what] ?? what;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A value as a person reads it: dates as dates, lists joined, empty as «пусто»; a sprint's board by its name
 * where `boards` know it, an assignee by the name `people` give.
 */
export function changeValue(v: unknown, what = '', boards?: Boards, people?: People): string {
  if (v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) return what === 'sprint' ? 'бэклог' : 'пусто';
  if (what === 'field:assignee' && typeof v === 'string') return personWords(v, people);
  if (typeof v === 'string' && DATE.test(v)) return new Date(`${v}T00:00:00Z`).toLocaleDateString('ru-RU', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  if (Array.isArray(v)) return v.map((x) => changeValue(x)).join(', ');
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    // A sprint by its identity (the hub's decision 1430): its name, and its board, as names repeat across boards.
    if (what === 'sprint' && typeof o.name === 'string') return typeof o.board_id === 'number' ? `${o.name} (${boardWords(o.board_id, boards)})` : o.name;
    if (typeof o.source === 'string' && typeof o.target === 'string') return `${o.source} → ${o.target} (${String(o.link_type)})`;
    if (typeof o.summary === 'string') return `${typeof o.key === 'string' ? `${o.key} ` : ''}«${o.summary}»`;
    if (typeof o.body === 'string') return `#${String(o.id)}: «${o.body.length > 80 ? `${o.body.slice(0, 79)}…` : o.body}»`;
    return JSON.stringify(v);
  }
  return String(v);
}

/** Before → after of one change, or the one side a creation or a removal has (`boards`: useChangeBoards; `people`: useCataloguePeople). */
export function ChangeDiff({ c, boards, people }: { c: RecordedChange; boards?: Boards; people?: People }) {
  const created = ['link', 'comment', 'issue'].includes(c.what);
  const removed = ['link_removed', 'comment_removed', 'issue_deleted'].includes(c.what);
  if (created) return <span className="diff-after">{changeValue(c.after, c.what)}</span>;
  if (removed) return <span className="diff-before">{changeValue(c.before, c.what)}</span>;
  return (
    <>
      <span className="diff-before">{changeValue(c.before, c.what, boards, people)}</span> → <span className="diff-after">{changeValue(c.after, c.what, boards, people)}</span>
      {c.transitions?.length ? <span className="muted small"> (переходы: {c.transitions.join(', ')})</span> : null}
    </>
  );
}

/** The batch page's section «Что изменено в Jira»: the changes grouped by issue. */
export function BatchChanges({ changes }: { changes?: Record<string, RecordedChange[]> }) {
  const groups = Object.entries(changes ?? {});
  const boards = useChangeBoards(groups.flatMap(([, list]) => list));
  const people = useCataloguePeople(changesNameAssignee(groups.flatMap(([, list]) => list)));
  if (groups.length === 0) return null; // nothing ran yet, or nothing changed
  return (
    <section className="panel" aria-label="Что изменено в Jira">
      <h2 className="panel-title">Что изменено в Jira</h2>
      <table className="table change-record">
        <thead>
          <tr>
            <th>Задача</th>
            <th>Что</th>
            <th>Было → стало</th>
          </tr>
        </thead>
        <tbody>
          {groups.flatMap(([key, list]) =>
            list.map((c, i) => (
              <tr key={`${key}-${c.command_id ?? 0}-${i}`}>
                <td>{i === 0 ? key ? <a href={`#/mirror/${key}`}>{key}</a> : '—' : ''}</td>
                <td>{changeLabel(c.what)}</td>
                <td>
                  <ChangeDiff c={c} boards={boards} people={people} />
                </td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </section>
  );
}
