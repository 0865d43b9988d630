/**
 * The OpenAPI document's models come from src/openapi-metadata.ts, which scripts/openapi-metadata.js generates
 * from the DTOs and views: the committed file matches the sources, and the served document says what the
 * decorators it replaced said.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startHub, type TestHub } from './support/app.js';

const run = promisify(execFile);

type Schema = { properties: Record<string, Record<string, unknown>>; required?: string[] };

describe('the OpenAPI metadata (scripts/openapi-metadata.js)', () => {
  let hub: TestHub;
  let doc: { components: { schemas: Record<string, Schema> }; paths: Record<string, Record<string, { security?: object[]; requestBody?: any; parameters?: any[]; responses?: any }>> };
  beforeAll(async () => {
    hub = await startHub({ HUB_CLIENT_TOKEN: 'c', HUB_AGENT_TOKEN: 'a', HUB_ASSISTANT_TOKEN: 's' });
    doc = (await hub.http.get('/docs/json').expect(200)).body;
  });
  afterAll(() => hub.close());

  it('src/openapi-metadata.ts is up to date with the DTOs and views', async () => {
    const { stdout } = await run(process.execPath, ['scripts/openapi-metadata.js', '--check']);
    expect(stdout).toContain('up to date');
  }, 120_000);

  it('types, optionality, nullable unions, enums in their written order, JSDoc descriptions and examples', () => {
    const { ReportDto, ClaimDto, CommandView, BatchView, SyncRunView, ChangeView, PutNoteDto } = doc.components.schemas;
    expect(ReportDto.required).toEqual(['status']);
    expect(ReportDto.properties.status).toMatchObject({ type: 'string', enum: ['done', 'failed', 'partial', 'released'], description: expect.stringContaining('partial: one part') });
    expect(ReportDto.properties.claim).toMatchObject({ description: expect.stringContaining('merged call'), allOf: [{ $ref: '#/components/schemas/AgentInfoDto' }] });
    expect(ReportDto.properties.result).toMatchObject({ type: 'object', additionalProperties: true, example: { key: 'AURORA-1600', created: true } });
    expect(ClaimDto.required).toBeUndefined();
    expect(ClaimDto.properties.wait_seconds).toMatchObject({ type: 'number', example: 30, minimum: 0, maximum: 60, description: expect.stringContaining('long poll') });
    expect(ClaimDto.properties.agent_version).toMatchObject({ type: 'string', example: '1.0.0' });
    expect(CommandView.properties.status.enum).toEqual(['queued', 'claimed', 'done', 'failed', 'cancelled', 'skipped', 'confirmed_by_state']);
    expect(CommandView.properties.result).toMatchObject({ type: 'object', nullable: true, additionalProperties: true });
    expect(CommandView.properties.claimed_at).toMatchObject({ type: 'string', nullable: true });
    // inherited properties first, as the classes declare them
    expect(Object.keys(BatchView.properties).slice(0, 2)).toEqual(['id', 'title']);
    expect(Object.keys(BatchView.properties).at(-1)).toBe('commands');
    expect(SyncRunView.properties.kind.enum).toEqual(['keys', 'jql']);
    expect(ChangeView.properties.from).toMatchObject({ nullable: true, example: 'To Do', description: "the mirror's value" });
    expect(PutNoteDto.properties.fact_status).toMatchObject({ type: 'string', nullable: true, example: 'в работе у подрядчика' });
    expect(doc.components.schemas.CancelCommandDto.properties.force).toEqual({ type: 'boolean', description: 'cancel even a command handed out to the agent', default: false });
    expect(doc.components.schemas.HealthView.properties.status).toMatchObject({ type: 'string', example: 'ok' });
    expect(doc.components.schemas.ImportReportView.required).toEqual(['notes', 'expected_links', 'missing_keys', 'missing_links', 'reversed_links']);
    // The revert's answer is described, its conflicts too (it was declared in a service, which the metadata skipped).
    const revert = doc.paths['/batches/{id}/revert'].post.responses!['201'].content['application/json'].schema;
    expect(revert).toEqual({ $ref: '#/components/schemas/RevertView' });
    expect(doc.components.schemas.RevertView.properties.conflicts).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/RevertConflictView' } });
    expect(doc.components.schemas.RevertConflictView.properties.retry_later).toMatchObject({ type: 'boolean', description: expect.stringContaining('decision 1467') });
    // leave_pending takes the dry run's pending_token, or true/false (decision 1491).
    const leave = doc.paths['/batches/{id}/revert'].post.parameters!.find((p: { name: string }) => p.name === 'leave_pending');
    expect(leave).toMatchObject({ in: 'query', required: false, description: expect.stringContaining('decision 1491'), schema: { type: 'string', pattern: '^[0-9a-f]{16}$|^(true|false)$' } });
    expect(doc.components.schemas.RevertView.properties.pending_token).toMatchObject({ type: 'string', nullable: true });
  });

  it('query parameters keep their order, defaults and limits', () => {
    const issues = doc.paths['/issues'].get.parameters!;
    expect(issues.map((p: { name: string }) => p.name)).toEqual(['keys', 'status', 'sprint', 'assignee', 'label', 'q', 'cursor', 'fold', 'count', 'limit', 'offset']);
    expect(issues.find((p: { name: string }) => p.name === 'limit').schema).toMatchObject({ default: 100, minimum: 1, maximum: 1000 });
    expect(issues.find((p: { name: string }) => p.name === 'offset').schema).toMatchObject({ default: 0, maximum: Number.MAX_SAFE_INTEGER });
  });

  it('the batch body with its examples, on both routes that take it', () => {
    for (const path of ['/batches', '/batches/plan']) {
      const body = doc.paths[path].post.requestBody.content['application/json'];
      expect(body.schema.$ref).toBe('#/components/schemas/CreateBatchDto');
      expect(Object.keys(body.examples)).toContain('ensure_issue');
    }
    expect(doc.components.schemas.CreateBatchDto.properties.commands).toMatchObject({ type: 'array', minItems: 1, items: { $ref: '#/components/schemas/CommandDto' } });
    // Issue 22: the command union of @jira-hub/contracts/commands, one branch per type with its params and an example.
    const branches = (doc.components.schemas.CommandDto as unknown as { oneOf: unknown }).oneOf as { properties: { type: { enum: string[] }; params: { required?: string[] } }; example: unknown }[];
    const ensureIssue = branches.find((b) => b.properties.type.enum[0] === 'ensure_issue')!;
    expect(ensureIssue.properties.params.required).toEqual(['temp_key', 'issue_type', 'summary']);
    expect(ensureIssue.example).toMatchObject({ type: 'ensure_issue' });
    expect(branches.map((b) => b.properties.type.enum[0])).toContain('ensure_comment');
  });

  it('each route lists the bearer schemes of the roles its guard admits', () => {
    const security = (path: string, method: string) => doc.paths[path][method].security;
    for (const path of ['/agent/claim', '/agent/commands/{id}/result', '/agent/settings']) {
      const method = path === '/agent/settings' ? 'get' : 'post';
      expect(security(path, method)).toEqual([{ agent: [] }]);
    }
    expect(security('/agent', 'get')).toEqual([{ client: [] }, { assistant: [] }]);
    expect(security('/batches', 'post')).toEqual([{ client: [] }, { assistant: [] }]);
    expect(security('/batches/{id}/approve', 'post')).toEqual([{ client: [] }]);
    expect(security('/settings', 'get')).toEqual([{ client: [] }, { assistant: [] }]);
    expect(security('/settings', 'patch')).toEqual([{ client: [] }]);
    expect(security('/events', 'get')).toEqual([{ client: [] }]);
    expect(security('/health', 'get')).toBeUndefined();
  });

  it('the same document is served as JSON at /docs/json and as YAML beside it at /docs/yaml', async () => {
    const yaml = await hub.http.get('/docs/yaml').expect(200);
    expect(yaml.headers['content-type']).toMatch(/yaml/);
    expect(yaml.text).toMatch(/^openapi: 3\./m);
    expect(yaml.text).toContain('title: Jira Hub');
    for (const path of Object.keys(doc.paths)) expect(yaml.text).toContain(`\n  ${path}:\n`);
  });

  // Its old address answered 404 once the YAML moved beside /docs/json: scripts written for it broke.
  it('the old address /docs-yaml is a permanent redirect (308) to /docs/yaml, its query kept', async () => {
    for (const [path, location] of [
      ['/docs-yaml', '/docs/yaml'],
      ['/docs-yaml?download=1&x=%D0%B0', '/docs/yaml?download=1&x=%D0%B0'],
      ['/DOCS-YAML', '/docs/yaml'],
    ]) {
      expect([path, (await hub.http.get(path).expect(308)).headers.location]).toEqual([path, location]);
    }
    expect((await hub.http.head('/docs-yaml').expect(308)).headers.location).toBe('/docs/yaml');
    const followed = await hub.http.get('/docs-yaml').redirects(1).expect(200);
    expect(followed.text).toMatch(/^openapi: 3\./m);
    await hub.http.get('/docs-yaml/x').expect(404);
  });
});
