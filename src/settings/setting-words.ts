/**
 * The settings' keys in words (Russian), for the 422 of PATCH /settings: a person sends `pacing.ensure_issue`
 * and is told «pacing.ensure_issue (пауза перед созданием задачи, секунды): не больше 3600» — the key as sent,
 * and what it is. Pure: no Nest, no ORM.
 */
import type { PacedType } from '@jira-hub/contracts/catalogue';

/** What the agent does after the pause of each command type (`pause_seconds`: waited before the command). */
const PACED: Readonly<Record<PacedType, string>> = {
  ensure_issue: 'созданием задачи',
  ensure_fields: 'изменением полей задачи',
  ensure_status: 'сменой статуса',
  ensure_link: 'созданием связи',
  ensure_sprint: 'переносом задачи в спринт',
  ensure_comment: 'комментарием',
  refresh: 'обновлением зеркала или каталога Jira',
  remove_link: 'удалением связи',
  remove_comment: 'удалением комментария',
  delete_issue: 'удалением задачи',
};

const WORDS: Readonly<Record<string, string>> = {
  pacing: 'паузы агента перед командами, секунды',
  link_types: 'слова типов связей → типы связей Jira',
  fields: 'пользовательские поля, которые можно задавать в ensure_fields',
  auto_refresh: 'автообновление зеркала',
  'auto_refresh.interval_minutes': 'как часто хаб сам обновляет зеркало, минуты',
  'auto_refresh.jql': 'запрос JQL автообновления',
  backup_keep: 'сколько копий базы хранить',
  agent_offline_seconds: 'через сколько секунд без обращений агент считается пропавшим',
  approval: 'чьи пакеты ждут одобрения',
  'approval.assistant': 'ждут ли одобрения пакеты ассистента',
  'approval.client': 'ждут ли одобрения пакеты, отправленные с клиентским токеном',
  'approval.hub': 'ждут ли одобрения пакеты автообновления',
  catalogue_max_age_minutes: 'через сколько минут каталог Jira устаревает',
  revert: 'что откат делает с задачами, созданными пакетом',
  'revert.created_issue_status': 'статус, в который откат переводит задачи, созданные пакетом',
  'revert.delete_created': 'удалять ли при откате задачи, созданные пакетом',
  audit_retention_days: 'сколько дней хранить журнал вызовов ассистента',
};

const own = (table: Readonly<Record<string, string>>, key: string): string | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);

/** What a settings key (its path in the body: `pacing.refresh`, `fields.1`, `link_types.блокирует`) is, in words; undefined for a key there is no such setting. */
export function settingWords(path: string): string | undefined {
  const [top, ...rest] = path.split('.');
  const inner = rest.join('.');
  if (rest.length === 0 || top === 'auto_refresh' || top === 'approval' || top === 'revert') return own(WORDS, path);
  if (top === 'pacing') {
    const paced = own(PACED, inner);
    return paced === undefined ? undefined : `пауза перед ${paced}, секунды`;
  }
  if (top === 'link_types') return `тип связи Jira для слова «${inner}»`;
  if (top === 'fields' && /^\d+$/.test(inner)) return `пользовательское поле № ${Number(inner) + 1}`;
  return undefined;
}
