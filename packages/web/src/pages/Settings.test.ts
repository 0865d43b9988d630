import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../test/support';
import { patchOf } from './Settings';

const draft = () => ({
  pacing: Object.fromEntries(Object.entries(SETTINGS.pacing).map(([k, v]) => [k, String(v)])),
  interval: '0',
  jql: '',
  approval: { ...SETTINGS.approval! },
  linkTypes: Object.entries(SETTINGS.link_types),
  fields: '',
});

describe('patchOf', () => {
  it('is empty when nothing changed', () => expect(patchOf(SETTINGS, draft())).toEqual({}));

  it('sends only what changed', () => {
    const d = draft();
    d.pacing.ensure_link = '45';
    d.jql = ' project = AURORA ';
    d.interval = '30';
    d.approval.client = true;
    d.linkTypes = [...d.linkTypes, ['дублирует', 'Duplicate'], ['', '']];
    d.fields = 'customfield_1, Story Points,';
    expect(patchOf(SETTINGS, d)).toEqual({
      pacing: { ensure_link: 45 },
      auto_refresh: { interval_minutes: 30, jql: 'project = AURORA' },
      approval: { assistant: true, client: true, hub: false },
      link_types: { блокирует: 'Blocks', связанные: 'Relates', дублирует: 'Duplicate' },
      fields: ['customfield_1', 'Story Points'],
    });
  });
});
