/**
 * A package row's sprint on a named board (SPEC 18, decision 1435): whether the board has an open sprint of
 * the name, as the checks read the catalogue (sprintsOnBoard), and the row's finding when it has none. Pure.
 */
import type { Catalogue } from '@jira-hub/contracts';
import { catalogueBoardIds, isOpenSprint, sprintsOnBoard } from '../catalogue/index.js';
import type { PackageMirrorIssue } from '../mirror/index.js';
import { shownText } from '../common/index.js';
import { inBacklog } from '../queue/index.js';

const same = (a: string | null | undefined, b: string | null | undefined) => (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();

/**
 * Why Jira would refuse to move `key` into the sprint `name` of `board` (Russian, the finding's detail), or
 * undefined when the board has an open sprint of that name or the catalogue cannot tell (a board it does not
 * know: the checks name that). `issue`: the mirror's, undefined for a new one.
 */
export function noOpenSprintOnBoard(catalogue: Catalogue, board: string | number, name: string, key: string, issue: PackageMirrorIssue | undefined): string | undefined {
  const onBoard = sprintsOnBoard(catalogue, board, name);
  if (onBoard === undefined || onBoard.some((id) => isOpenSprint(catalogue, id) === true)) return undefined;
  const ids = catalogueBoardIds(catalogue, board) ?? [];
  const boardName = (id: number | string) => (typeof id === 'string' ? id : (catalogue.boards.find((b) => b.id === id)?.name ?? String(id)));
  // The issue's own sprint of that name on this board, closed (decision 1434: the issue is in the backlog).
  const own = issue?.sprint_board_id ?? null;
  const closedHere = issue !== undefined && same(name, issue.sprint) && inBacklog(issue) && ((own !== null && ids.includes(own)) || (issue.sprint_id != null && onBoard.includes(issue.sprint_id)));
  const why = closedHere ? `: спринт «${issue.sprint}» этой доски закрыт, задача в бэклоге` : onBoard.length > 0 ? `: спринт «${shownText(name)}» этой доски закрыт` : '';
  const elsewhere = [...new Set(catalogue.sprints.filter((s) => s.state !== 'closed' && same(s.name, name) && !ids.includes(s.board_id)).map((s) => `«${boardName(s.board_id)}»`))];
  const there = elsewhere.length === 0 ? '' : elsewhere.length === 1 ? `; такой спринт есть на доске ${elsewhere[0]}` : `; такие спринты есть на досках ${elsewhere.join(', ')}`;
  return `${key}: на доске «${shownText(boardName(board))}» нет активного или будущего спринта «${shownText(name)}»${why}${there} — перенести задачу туда нельзя, поэтому переноса в плане нет: укажите открытый спринт этой доски или другую доску`;
}
