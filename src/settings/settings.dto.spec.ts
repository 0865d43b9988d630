/**
 * What `PATCH /settings` accepts (SPEC 9), through the hub's one global ValidationPipe and PatchSettingsDto:
 * each refused body names its field. The e2e file keeps one path per behaviour (the 422 over HTTP).
 */
import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { createValidationPipe, ValidationFailedError } from '../common/index.js';
import { PatchSettingsDto } from './settings.dto.js';

const pipe = createValidationPipe();

/** The fields the pipe's 422 names, or [] when the body passes. */
async function refused(body: unknown): Promise<string[]> {
  try {
    await pipe.transform(body, { type: 'body', metatype: PatchSettingsDto });
    return [];
  } catch (err) {
    if (!(err instanceof ValidationFailedError)) throw err;
    return err.errors.map((e) => e.field);
  }
}

describe('PatchSettingsDto', () => {
  it.each<[string, unknown]>([
    ['a pause', { pacing: { ensure_issue: 0 } }],
    ['the longest pause', { pacing: { delete_issue: 3600 } }],
    ['link words', { link_types: { блокирует: 'Blocks' } }],
    ['custom fields', { fields: ['customfield_10042', 'Story Points'] }],
    ['no custom fields', { fields: [] }],
    ['auto refresh off', { auto_refresh: { interval_minutes: 0, jql: null } }],
    ['auto refresh JQL', { auto_refresh: { jql: 'project = AURORA' } }],
    ['approval per source', { approval: { client: true } }],
    ['revert', { revert: { created_issue_status: 'Done', delete_created: true } }],
    ['limits at their edges', { backup_keep: 1000, agent_offline_seconds: 1, catalogue_max_age_minutes: 525600, audit_retention_days: 3650 }],
    ['nothing', {}],
  ])('accepts %s', async (_, body) => {
    expect(await refused(body)).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ['a negative pause', { pacing: { ensure_issue: -1 } }, 'pacing.ensure_issue'],
    ['a pause over an hour', { pacing: { refresh: 3601 } }, 'pacing.refresh'],
    ['a fractional pause', { pacing: { refresh: 1.5 } }, 'pacing.refresh'],
    ['a pause of an unknown type', { pacing: { ensure_watcher: 10 } }, 'pacing.ensure_watcher'],
    ['null pacing', { pacing: null }, 'pacing'],
    ['a link word to an empty type', { link_types: { блокирует: '' } }, 'link_types'],
    ['a blank custom field', { fields: ['  '] }, 'fields'],
    ['a custom field named like a standard param', { fields: ['summary'] }, 'fields'],
    ['a repeated custom field', { fields: ['Team', 'Team'] }, 'fields'],
    ['fields not a list', { fields: 'Team' }, 'fields'],
    ['a blank JQL', { auto_refresh: { jql: '  ' } }, 'auto_refresh.jql'],
    ['an interval over a week', { auto_refresh: { interval_minutes: 10081 } }, 'auto_refresh.interval_minutes'],
    ['approval not a boolean', { approval: { hub: 'yes' } }, 'approval.hub'],
    ['no backups', { backup_keep: 0 }, 'backup_keep'],
    ['offline after 0 s', { agent_offline_seconds: 0 }, 'agent_offline_seconds'],
    ['a catalogue never stale', { catalogue_max_age_minutes: 525601 }, 'catalogue_max_age_minutes'],
    ['an audit kept 0 days', { audit_retention_days: 0 }, 'audit_retention_days'],
    ['a blank revert status', { revert: { created_issue_status: ' ' } }, 'revert.created_issue_status'],
    ['version (the hub sets it)', { version: 9 }, 'version'],
    ['an unknown key', { colour: 'red' }, 'colour'],
  ])('refuses %s, naming %s', async (_, body, field) => {
    expect(await refused(body)).toContain(field);
  });
});
