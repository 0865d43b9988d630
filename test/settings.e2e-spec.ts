import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { startHub, type TestHub } from './support/app.js';

describe('settings (SPEC 9)', () => {
  let hub: TestHub;
  beforeEach(async () => {
    hub = await startHub();
  });
  afterEach(() => hub.close());

  it('has the defaults at version 1', async () => {
    expect((await hub.http.get('/settings').expect(200)).body).toEqual({
      version: 1,
      pacing: { ensure_issue: 180, ensure_fields: 120, ensure_status: 120, ensure_link: 90, ensure_sprint: 120, ensure_comment: 150, refresh: 60 },
      link_types: { блокирует: 'Blocks', связанные: 'Relates', дублирует: 'Duplicate' },
      fields: [],
      auto_refresh: { interval_minutes: 0, jql: null },
      backup_keep: 20,
      agent_offline_seconds: 120,
    });
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

  const bad: [string, unknown][] = [
    ['pause above 3600', { pacing: { refresh: 3601 } }],
    ['negative pause', { pacing: { refresh: -1 } }],
    ['unknown pacing type', { pacing: { ensure_magic: 1 } }],
    ['fractional pause', { pacing: { refresh: 1.5 } }],
    ['link types not strings', { link_types: { a: 1 } }],
    ['fields not strings', { fields: [1] }],
    ['backup_keep 0', { backup_keep: 0 }],
    ['unknown key', { colour: 'red' }],
    ['interval negative', { auto_refresh: { interval_minutes: -5 } }],
  ];
  it.each(bad)('%s → 422, nothing changed', async (_, body) => {
    const res = await hub.http.patch('/settings').send(body as object).expect(422);
    expect(res.body.error).toBe('validation_failed');
    expect((await hub.http.get('/settings')).body.version).toBe(1);
  });
});
