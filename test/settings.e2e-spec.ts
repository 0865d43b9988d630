import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { startHub, type TestHub } from './support/app.js';
import { reportCatalogue } from './support/catalogue.js';

describe('settings (SPEC 9)', () => {
  let hub: TestHub;

  describe('read and changed (a hub per test)', () => {
    beforeEach(async () => {
      hub = await startHub();
    });
    afterEach(() => hub.close());

    it('has the defaults at version 1', async () => {
      expect((await hub.http.get('/settings').expect(200)).body).toEqual({
        version: 1,
        pacing: {
          ensure_issue: 180,
          ensure_fields: 120,
          ensure_status: 120,
          ensure_link: 90,
          ensure_sprint: 120,
          ensure_comment: 150,
          refresh: 60,
          remove_link: 90,
          remove_comment: 150,
          delete_issue: 180,
        },
        link_types: { блокирует: 'Blocks', связанные: 'Relates', дублирует: 'Duplicate' },
        fields: [],
        auto_refresh: { interval_minutes: 0, jql: null },
        backup_keep: 20,
        audit_retention_days: 90,
        agent_offline_seconds: 120,
        approval: { assistant: true, client: false, hub: false },
        catalogue_max_age_minutes: 1440,
        revert: { created_issue_status: 'Done', delete_created: false },
      });
    });

    it('revert (SPEC 17.2) merges per entry and refuses a blank status, a non-boolean and null', async () => {
      const res = await hub.http.patch('/settings').send({ revert: { delete_created: true } }).expect(200);
      expect(res.body.revert).toEqual({ created_issue_status: 'Done', delete_created: true });
      for (const revert of [{ created_issue_status: ' ' }, { delete_created: 'yes' }, { created_issue_status: null }, null]) {
        const bad = await hub.http.patch('/settings').send({ revert }).expect(422);
        expect(bad.body).toMatchObject({ error: 'validation_failed', detail: expect.stringMatching(/[а-я]/) });
      }
      expect((await hub.http.get('/settings').expect(200)).body.revert).toEqual({ created_issue_status: 'Done', delete_created: true });
    });

    it('approval (SPEC 15.2) merges per entry, takes booleans only, and refuses unknown sources and null', async () => {
      const res = await hub.http.patch('/settings').send({ approval: { client: true } }).expect(200);
      expect(res.body.approval).toEqual({ assistant: true, client: true, hub: false });
      expect(res.body.version).toBe(2);
      for (const approval of [{ assistant: 'yes' }, { robot: true }, null, [true], { hub: null }, true]) {
        const bad = await hub.http.patch('/settings').send({ approval }).expect(422);
        expect(bad.body).toMatchObject({ error: 'validation_failed', detail: expect.stringMatching(/[а-я]/) });
      }
      expect((await hub.http.get('/settings').expect(200)).body).toMatchObject({ version: 2, approval: { assistant: true, client: true, hub: false } });
    });

    it('a PATCH that changes nothing keeps the version (agents are not made stale)', async () => {
      const before = (await hub.http.get('/settings').expect(200)).body;
      for (const body of [{}, { pacing: {} }, { auto_refresh: {} }, { backup_keep: before.backup_keep }, { pacing: { refresh: before.pacing.refresh } }, { link_types: before.link_types }, { link_types: Object.fromEntries(Object.entries(before.link_types).reverse()) }]) {
        expect((await hub.http.patch('/settings').send(body).expect(200)).body).toEqual(before);
      }
      expect((await hub.http.patch('/settings').send({ backup_keep: before.backup_keep + 1 }).expect(200)).body.version).toBe(before.version + 1);
    });

    it('PATCH merges pacing and auto_refresh per entry, replaces other keys, bumps the version, and survives a restart', async () => {
      const res = await hub.http
        .patch('/settings')
        .send({ pacing: { ensure_issue: 5 }, link_types: { связанные: 'Relates' }, auto_refresh: { jql: 'project = A' } })
        .expect(200);
      expect(res.body.version).toBe(2);
      expect(res.body.pacing).toMatchObject({ ensure_issue: 5, ensure_fields: 120 });
      expect(res.body.link_types).toEqual({ связанные: 'Relates' });
      expect(res.body.auto_refresh).toEqual({ interval_minutes: 0, jql: 'project = A' });
      expect((await hub.http.patch('/settings').send({ backup_keep: 3 }).expect(200)).body.version).toBe(3);
      expect((await hub.http.get('/agent/settings').expect(200)).body).toEqual({
        version: 3,
        pacing: res.body.pacing,
        link_types: { связанные: 'Relates' },
        fields: [],
      });
      await hub.app.close();
      const again = await startHub({ HUB_DB_PATH: hub.config.dbPath });
      try {
        expect((await again.http.get('/settings').expect(200)).body).toMatchObject({ version: 3, backup_keep: 3, pacing: { ensure_issue: 5 } });
      } finally {
        await again.close();
      }
    });

    // [case, body, what the Russian detail must say]

    it('auto_refresh.jql may be set to null, and other keys stay as they are', async () => {
      await hub.http.patch('/settings').send({ auto_refresh: { interval_minutes: 5, jql: 'project = A' }, fields: ['Story Points'] }).expect(200);
      const res = await hub.http.patch('/settings').send({ auto_refresh: { jql: null } }).expect(200);
      expect(res.body).toMatchObject({ version: 3, auto_refresh: { interval_minutes: 5, jql: null }, fields: ['Story Points'] });
      expect((await hub.http.get('/settings').expect(200)).body).toEqual(res.body);
    });

    it('accepts custom field names that only resemble param names', async () => {
      const fields = ['Key', 'Summary', 'customfield_10042', 'Story Points', 'parent link'];
      const res = await hub.http.patch('/settings').send({ fields }).expect(200);
      expect(res.body).toMatchObject({ version: 2, fields });
    });
  });

  // A refused PATCH changes nothing, so one hub serves every case: each checks the settings and their version are as before.
  describe('refused: 422, nothing changed (one hub for all)', () => {
    beforeAll(async () => {
      hub = await startHub();
    });
    afterAll(() => hub.close());

    const bad: [string, unknown, RegExp][] = [
      ['pause above 3600', { pacing: { refresh: 3601 } }, /^pacing\.refresh \(пауза перед обновлением зеркала или каталога Jira, секунды\): /],
      ['negative pause', { pacing: { refresh: -1 } }, /^pacing\.refresh \(пауза перед обновлением зеркала или каталога Jira, секунды\): /],
      ['unknown pacing type', { pacing: { ensure_magic: 1 } }, /^pacing\.ensure_magic: /],
      ['fractional pause', { pacing: { refresh: 1.5 } }, /^pacing\.refresh \(пауза перед обновлением зеркала или каталога Jira, секунды\): /],
      ['link types not strings', { link_types: { a: 1 } }, /^link_types \(слова типов связей → типы связей Jira\): /],
      // matched trimmed and case aside: a map that means two things is refused (one route trimmed, another not)
      ['a link word with spaces at its ends', { link_types: { ' мешает ': 'Blocks' } }, /^link_types \(слова типов связей → типы связей Jira\): « мешает »: пробелы в начале или в конце/],
      ['a link type with spaces at its ends', { link_types: { мешает: ' Blocks ' } }, /^link_types \(слова типов связей → типы связей Jira\): « Blocks »: пробелы/],
      ['two link words differing only in case', { link_types: { блокирует: 'Blocks', Блокирует: 'Relates' } }, /^link_types \(слова типов связей → типы связей Jira\): «блокирует» и «Блокирует» — одно слово/],
      ['fields not strings', { fields: [1] }, /^fields \(пользовательские поля, которые можно задавать в ensure_fields\): /],
      ['blank field name', { fields: ['  '] }, /^fields \(пользовательские поля, которые можно задавать в ensure_fields\): /],
      ['backup_keep 0', { backup_keep: 0 }, /^backup_keep \(сколько копий базы хранить\): /],
      ['unknown key', { colour: 'red' }, /^colour: /],
      ['interval negative', { auto_refresh: { interval_minutes: -5 } }, /^auto_refresh\.interval_minutes \(как часто хаб сам обновляет зеркало, минуты\): /],
      // null is not "leave as is": only auto_refresh.jql may be null (no auto-refresh query).
      ['pacing null', { pacing: null }, /^pacing \(паузы агента перед командами, секунды\): null недопустим/],
      ['a pause null', { pacing: { refresh: null } }, /^pacing\.refresh \(пауза перед обновлением зеркала или каталога Jira, секунды\): null недопустим/],
      ['a pause null beside a valid one', { pacing: { ensure_issue: 5, refresh: null } }, /^pacing\.refresh \(пауза перед обновлением зеркала или каталога Jira, секунды\): null недопустим/],
      ['link_types null', { link_types: null }, /^link_types \(слова типов связей → типы связей Jira\): null недопустим/],
      ['fields null', { fields: null }, /^fields \(пользовательские поля, которые можно задавать в ensure_fields\): null недопустим/],
      ['a field name null', { fields: ['Story Points', null] }, /^fields \(пользовательские поля, которые можно задавать в ensure_fields\): /],
      ['auto_refresh null', { auto_refresh: null }, /^auto_refresh \(автообновление зеркала\): null недопустим/],
      ['interval null', { auto_refresh: { interval_minutes: null } }, /^auto_refresh\.interval_minutes \(как часто хаб сам обновляет зеркало, минуты\): null недопустим/],
      ['backup_keep null', { backup_keep: null }, /^backup_keep \(сколько копий базы хранить\): null недопустим/],
      ['agent_offline_seconds null', { agent_offline_seconds: null }, /^agent_offline_seconds \(через сколько секунд без обращений агент считается пропавшим\): null недопустим/],
      ['null beside a valid key', { backup_keep: 3, agent_offline_seconds: null }, /^agent_offline_seconds \(через сколько секунд без обращений агент считается пропавшим\): null недопустим/],
      // auto_refresh.jql: a string that is non-blank after trim (as refresh jql in a batch), or null.
      ['jql empty', { auto_refresh: { jql: '' } }, /^auto_refresh\.jql \(запрос JQL автообновления\): /],
      ['jql blank', { auto_refresh: { interval_minutes: 5, jql: ' \t\n ' } }, /^auto_refresh\.jql \(запрос JQL автообновления\): /],
      ['jql not a string', { auto_refresh: { jql: 5 } }, /^auto_refresh\.jql \(запрос JQL автообновления\): /],
      ['jql over 10,000 characters (decision 1427)', { auto_refresh: { jql: `project = A AND text ~ "${'x'.repeat(10_000)}"` } }, /^auto_refresh\.jql \(запрос JQL автообновления\): не длиннее 10000 символов$/],
      // fields: custom field names must not be param names of commands (SPEC 4) nor repeat.
      ['field name "key"', { fields: ['key'] }, /«key»/],
      ['standard field name', { fields: ['Story Points', 'summary'] }, /«summary»/],
      ['key param names', { fields: ['source', 'target', 'parent', 'temp_key'] }, /«source», «target», «parent», «temp_key»/],
      ['other param names', { fields: ['issue_type', 'labels', 'duedate', 'keys', 'jql'] }, /«issue_type», «labels», «duedate», «keys», «jql»/],
      ['repeated field name', { fields: ['Story Points', 'customfield_10042', 'Story Points'] }, /повтор[^;]*«Story Points»/],
    ];
    it.each(bad)('%s → 422, nothing changed', async (_, body, detail) => {
      const before = (await hub.http.get('/settings').expect(200)).body;
      const res = await hub.http.patch('/settings').send(body as object).expect(422);
      expect(res.body).toEqual({ error: 'validation_failed', detail: expect.any(String), errors: expect.any(Array) });
      expect(res.body.detail).toMatch(/[А-Яа-яЁё]/);
      expect(res.body.detail).toMatch(detail);
      const after = (await hub.http.get('/settings').expect(200)).body;
      expect(after).toEqual(before);
      expect(after.version).toBe(1);
    });
  });

  it('a refusal names each key as sent and what it is in Russian; `errors` keep the path and the bare problem (decision 1439)', async () => {
    hub = await startHub();
    try {
      const res = await hub.http.patch('/settings').send({ pacing: { ensure_issue: 4000, delete_issue: -1 }, backup_keep: 0, revert: { delete_created: 'yes' }, colour: 'red' }).expect(422);
      expect(res.body).toEqual({
        error: 'validation_failed',
        detail: expect.any(String),
        errors: expect.arrayContaining([
          { field: 'pacing.ensure_issue', detail: 'не больше 3600' },
          { field: 'pacing.delete_issue', detail: 'не меньше 0' },
          { field: 'backup_keep', detail: 'не меньше 1' },
          { field: 'revert.delete_created', detail: 'нужно true или false' },
          { field: 'colour', detail: 'неизвестная настройка' },
        ]),
      });
      expect(res.body.errors).toHaveLength(5);
      expect(res.body.detail.split('; ').sort()).toEqual(
        [
          'pacing.ensure_issue (пауза перед созданием задачи, секунды): не больше 3600',
          'pacing.delete_issue (пауза перед удалением задачи, секунды): не меньше 0',
          'backup_keep (сколько копий базы хранить): не меньше 1',
          'revert.delete_created (удалять ли при откате задачи, созданные пакетом): нужно true или false',
          // no such setting: nothing to explain
          'colour: неизвестная настройка',
        ].sort(),
      );
    } finally {
      await hub.close();
    }
  });

  it('a key that is no setting, at the top, inside a group or named like a built-in member, is «неизвестная настройка»', async () => {
    hub = await startHub();
    try {
      for (const [body, field] of [
        [{ colour: 'red' }, 'colour'],
        [{ pacing: { ensure_isue: 5 } }, 'pacing.ensure_isue'],
        [{ revert: { delete: true } }, 'revert.delete'],
        [JSON.parse('{"toString": 1}'), 'toString'],
      ] as [object, string][]) {
        const res = await hub.http.patch('/settings').send(body).expect(422);
        expect(res.body).toEqual({ error: 'validation_failed', detail: `${field}: неизвестная настройка`, errors: [{ field, detail: 'неизвестная настройка' }] });
      }
      expect((await hub.http.get('/settings').expect(200)).body.version).toBe(1);
    } finally {
      await hub.close();
    }
  });

  describe('link types and fields Jira does not have, by the catalogue (decision 1425)', () => {
    beforeEach(async () => {
      hub = await startHub();
    });
    afterEach(() => hub.close());

    it('without a catalogue the hub cannot tell: taken (the agent checks at its start)', async () => {
      await hub.http.patch('/settings').send({ link_types: { блокирует: 'Block' }, fields: ['Story Pointz'] }).expect(200);
    });

    it('with one: a link type or field Jira lacks → 422 naming it with the close one, nothing changed; any letter case, an id and a name are taken', async () => {
      await reportCatalogue(hub);
      const before = (await hub.http.get('/settings').expect(200)).body;
      const res = await hub.http.patch('/settings').send({ link_types: { блокирует: 'Block', связанные: 'relates' }, fields: ['story points', 'Story Pointz', 'customfield_10099'] }).expect(422);
      expect(res.body.errors).toEqual([
        { field: 'link_types.блокирует', detail: 'типа связи «Block» в Jira проекта AURORA нет (есть: Blocks, Relates, Duplicate): с ним агент не запустится — может быть, Blocks?' },
        { field: 'fields.1', detail: 'поля «Story Pointz» в Jira нет: с ним агент не запустится — может быть, Story Points (customfield_10020)?' },
        { field: 'fields.2', detail: 'поля «customfield_10099» в Jira нет: с ним агент не запустится' },
      ]);
      expect(res.body.detail).toBe(
        'link_types.блокирует (тип связи Jira для слова «блокирует»): типа связи «Block» в Jira проекта AURORA нет (есть: Blocks, Relates, Duplicate): с ним агент не запустится — может быть, Blocks?; ' +
          'fields.1 (пользовательское поле № 2): поля «Story Pointz» в Jira нет: с ним агент не запустится — может быть, Story Points (customfield_10020)?; ' +
          'fields.2 (пользовательское поле № 3): поля «customfield_10099» в Jira нет: с ним агент не запустится',
      );
      expect((await hub.http.get('/settings').expect(200)).body).toEqual(before);
      const ok = await hub.http.patch('/settings').send({ link_types: { блокирует: 'blocks' }, fields: ['story points', 'customfield_10030'] }).expect(200);
      expect(ok.body).toMatchObject({ version: before.version + 1, link_types: { блокирует: 'blocks' }, fields: ['story points', 'customfield_10030'] });
      // A change of other keys does not judge these again.
      await hub.http.patch('/settings').send({ backup_keep: 7 }).expect(200);
    });
  });
});
