import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatReport, main } from '../src/cli.js';
import { agentOf, issue, refreshResult, startHub, type TestHub } from './support/app.js';

describe('import of a planning package (SPEC 8)', () => {
  let hub: TestHub;
  let agent: ReturnType<typeof agentOf>;
  beforeEach(async () => {
    hub = await startHub();
    agent = agentOf(hub);
  });
  afterEach(() => hub.close());

  async function mirror(issues: string[], links: { source_key: string; target_key: string; link_type: string }[]) {
    await hub.http.post('/batches').send({ title: 'r', commands: [{ type: 'refresh', params: { keys: issues } }] });
    const c = (await agent.claim()).command;
    await agent.done(c.id, refreshResult(issues.map((key) => ({ key })), links));
  }
  const upload = (files: Record<string, string | Buffer>) => {
    let req = hub.http.post('/import');
    for (const [field, content] of Object.entries(files)) req = req.attach(field, Buffer.from(content), `${field}.csv`);
    return req;
  };

  it('scenario 13: a reversed link is reported as reversed, an absent one as missing', async () => {
    await mirror(['AURORA-1533', 'AURORA-1586', 'AURORA-1600'], [{ source_key: 'AURORA-1586', target_key: 'AURORA-1533', link_type: 'Relates' }]);
    const links = 'Откуда,Тип,Куда,Пояснение (внутр.)\nAURORA-1533,связанные,AURORA-1586,\nAURORA-1533,блокирует,AURORA-1600,важно\n';
    const res = await upload({ links }).expect(200);
    expect(res.body).toEqual({
      notes: 0,
      expected_links: [
        { source: 'AURORA-1533', target: 'AURORA-1586', link_type: 'Relates' },
        { source: 'AURORA-1533', target: 'AURORA-1600', link_type: 'Blocks' },
      ],
      missing_keys: [],
      missing_links: [{ source: 'AURORA-1533', target: 'AURORA-1600', link_type: 'Blocks' }],
      reversed_links: [{ source: 'AURORA-1533', target: 'AURORA-1586', link_type: 'Relates' }],
    });
  });

  it('BOM, semicolons, English headers, temp keys resolved or skipped, untranslated types, missing keys', async () => {
    await hub.http.post('/batches').send({ title: 'i', commands: [issue('new:1', 'X')] });
    await agent.done((await agent.claim()).command.id, { key: 'A-10', created: true });
    await agent.done((await agent.claim()).command.id, refreshResult([{ key: 'A-10' }], [{ source_key: 'A-10', target_key: 'A-11', link_type: 'Cloners' }]));
    const notes = '\uFEFFKey;Fact_Status;Comment\nnew:1;в работе;ждём\nA-12;;\n';
    const links = '\uFEFF FROM ; type ; To ; note\nnew:1;Cloners;A-11;\nnew:2;блокирует;A-10;\n;связанные;A-10;\n';
    const res = await upload({ notes, links }).expect(200);
    expect(res.body).toEqual({
      notes: 2,
      expected_links: [{ source: 'A-10', target: 'A-11', link_type: 'Cloners' }],
      missing_keys: ['A-11', 'A-12'],
      missing_links: [],
      reversed_links: [],
    });
    // new:1 is already A-10: its note goes to the issue
    expect((await hub.http.get('/notes/A-10')).body).toMatchObject({ fact_status: 'в работе', comment: 'ждём', source: 'import' });
    await hub.http.get('/notes/new:1').expect(404);
    expect((await hub.http.get('/notes/A-12')).body).toMatchObject({ fact_status: null, comment: null, source: 'import' });
  });

  it('no files → the empty report', async () => {
    expect((await hub.http.post('/import').expect(200)).body).toEqual({ notes: 0, expected_links: [], missing_keys: [], missing_links: [], reversed_links: [] });
  });

  const malformed: [string, Record<string, string>, RegExp][] = [
    ['a bad key in a row', { notes: 'Ключ,Факт. статус\nA-1,ok\nnot a key,x\n' }, /notes\.csv, строка 3/],
    ['no header', { notes: '' }, /notes\.csv/],
    ['unknown columns only', { links: 'a,b,c\n1,2,3\n' }, /links\.csv, строка 1/],
    ['a bad link end', { notes: 'key\nA-1\n', links: 'from,type,to\nA-1,Blocks,A-2\nA-1,Blocks,x-2\n' }, /links\.csv, строка 3/],
  ];
  it.each(malformed)('%s → 422 naming the file and row, no note written', async (_, files, detail) => {
    const res = await upload(files).expect(422);
    expect(res.body.error).toBe('validation_failed');
    expect(res.body.detail).toMatch(detail);
    expect((await hub.http.get('/notes')).body).toEqual([]);
  });

  it('CLI `import <folder>` prints a readable report, or JSON with --json', async () => {
    await hub.app.close();
    const folder = join(hub.dir, 'package');
    mkdirSync(folder);
    writeFileSync(join(folder, 'links.csv'), 'from,type,to\nA-1,блокирует,A-2\n');
    writeFileSync(join(folder, 'notes.csv'), 'key,comment\nA-1,hi\n');
    const out: string[] = [];
    const log = console.log;
    console.log = (s: string) => out.push(s);
    try {
      expect(await main(['import', folder, '--json'], { HUB_DB_PATH: hub.config.dbPath })).toBe(0);
      expect(await main(['import', folder], { HUB_DB_PATH: hub.config.dbPath })).toBe(0);
    } finally {
      console.log = log;
    }
    const report = JSON.parse(out[0]);
    expect(report).toMatchObject({ notes: 1, missing_links: [{ source: 'A-1', target: 'A-2', link_type: 'Blocks' }], missing_keys: ['A-1', 'A-2'] });
    expect(out[1]).toBe(formatReport(report));
    expect(out[1]).toContain('A-1 —Blocks→ A-2');
    const errors: string[] = [];
    const error = console.error;
    console.error = (s: string) => errors.push(s);
    try {
      expect(await main(['import', join(hub.dir, 'nope')], { HUB_DB_PATH: hub.config.dbPath })).toBe(2);
    } finally {
      console.error = error;
    }
    expect(errors[0]).toContain('is not a folder');
  });
});
