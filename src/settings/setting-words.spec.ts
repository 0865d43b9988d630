import { describe, expect, it } from '@jest/globals';
import { DEFAULT_SETTINGS, MERGED_KEYS, SETTING_KEYS } from './defaults.js';
import { settingWords } from './setting-words.js';

describe('settingWords', () => {
  it.each([
    ['pacing', 'паузы агента перед командами, секунды'],
    ['pacing.ensure_issue', 'пауза перед созданием задачи, секунды'],
    ['pacing.refresh', 'пауза перед обновлением зеркала или каталога Jira, секунды'],
    ['pacing.delete_issue', 'пауза перед удалением задачи, секунды'],
    ['auto_refresh.interval_minutes', 'как часто хаб сам обновляет зеркало, минуты'],
    ['approval.assistant', 'ждут ли одобрения пакеты ассистента'],
    ['revert.created_issue_status', 'статус, в который откат переводит задачи, созданные пакетом'],
    ['backup_keep', 'сколько копий базы хранить'],
    ['link_types.блокирует', 'тип связи Jira для слова «блокирует»'],
    ['fields.0', 'пользовательское поле № 1'],
    ['fields.1', 'пользовательское поле № 2'],
  ])('%s: %s', (path, words) => expect(settingWords(path)).toBe(words));

  it('has no words for keys there is no such setting, members of Object.prototype included', () => {
    for (const path of ['colour', 'pacing.ensure_magic', 'pacing.toString', 'constructor', 'approval.nobody', 'fields.x']) expect(settingWords(path)).toBeUndefined();
  });

  it('explains every settings key and every entry of a merged one', () => {
    for (const key of SETTING_KEYS) expect(settingWords(key)).toMatch(/[а-я]/);
    for (const key of MERGED_KEYS) for (const entry of Object.keys(DEFAULT_SETTINGS[key] as object)) expect(settingWords(`${key}.${entry}`)).toMatch(/[а-я]/);
    for (const type of Object.keys(DEFAULT_SETTINGS.pacing)) expect(settingWords(`pacing.${type}`)).toMatch(/^пауза перед /);
  });
});
