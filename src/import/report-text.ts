/** The import report in words for a person (Russian): the CLI prints it, the MCP tool answers with it. Pure. */
import type { ImportReport } from './compare.js';

export function formatReport(r: ImportReport): string {
  const links = (title: string, list: ImportReport['missing_links']) =>
    `${title}: ${list.length}${list.map((l) => `\n  ${l.source} —${l.link_type}→ ${l.target}`).join('')}`;
  return [
    `Заметок импортировано: ${r.notes}`,
    `Ожидаемых связей: ${r.expected_links.length}`,
    links('Нет в Jira', r.missing_links),
    links('В Jira в обратную сторону', r.reversed_links),
    `Ключей нет в зеркале: ${r.missing_keys.length ? `${r.missing_keys.join(', ')} (обновите эти задачи в зеркале)` : 'нет'}`,
    ...(r.skipped_links?.length ? [`Строки links.csv не сравнивались: ${r.skipped_links.length}${r.skipped_links.map((s) => `\n  строка ${s.row}: ${s.reason}`).join('')}`] : []),
  ].join('\n');
}
