/**
 * The Data Center routes of the catalogue (REST v2) answer in the shapes of Atlassian's DC documentation
 * (Jira Server / Data Center REST API reference, "Example" bodies of each resource, copied below): the
 * simulator's answer has every property of the example with the same JSON type, recursively through the
 * first item of each list, and the agent reads the catalogue from them. Cloud's routes are checked against
 * the OpenAPI descriptions by the contract test.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { JiraSimulator } from '@jira-hub/jira-sim';

describe('jira-dc-shapes', () => {
  /** Examples from the DC REST v2 reference (abridged to one item per list; values as documented). */
  const DC_EXAMPLES: Record<string, unknown> = {
    'GET /rest/api/2/issue/createmeta/{project}/issuetypes': {
      maxResults: 50,
      startAt: 0,
      total: 1,
      isLast: true,
      values: [{ self: 'http://localhost:8080/rest/api/2/issuetype/3', id: '3', description: 'A task that needs to be done.', iconUrl: 'http://localhost:8080/images/icons/issuetypes/task.png', name: 'Task', subtask: false }],
    },
    'GET /rest/api/2/issue/createmeta/{project}/issuetypes/{id}': {
      maxResults: 50,
      startAt: 0,
      total: 1,
      isLast: true,
      values: [{ required: true, schema: { type: 'priority', system: 'priority' }, name: 'Priority', fieldId: 'priority', hasDefaultValue: true, operations: ['set'], allowedValues: [{ self: 'http://localhost:8080/rest/api/2/priority/3', id: '3', name: 'Medium' }] }],
    },
    // the old route, all Data Center has before 8.4 (project avatars left out)
    'GET /rest/api/2/issue/createmeta?expand=projects.issuetypes.fields': {
      expand: 'projects',
      projects: [
        {
          self: 'http://localhost:8080/rest/api/2/project/10000',
          id: '10000',
          key: 'HSP',
          name: 'homosapien',
          issuetypes: [
            { self: 'http://localhost:8080/rest/api/2/issueType/1', id: '1', description: 'An error in the code', iconUrl: 'http://localhost:8080/images/icons/issuetypes/bug.png', name: 'Bug', subtask: false, fields: { issuetype: { required: true, name: 'Issue Type', hasDefaultValue: false, operations: ['set'] } } },
          ],
        },
      ],
    },
    'GET /rest/api/2/issue/{key}/editmeta': {
      fields: { summary: { required: true, schema: { type: 'string', system: 'summary' }, name: 'Summary', key: 'summary', operations: ['set'] } },
    },
    'GET /rest/api/2/project/{key}/statuses': [
      {
        self: 'http://localhost:8080/rest/api/2/issueType/3',
        id: '3',
        name: 'Task',
        subtask: false,
        statuses: [{ self: 'http://localhost:8080/rest/api/2/status/10000', description: 'The issue is currently being worked on.', iconUrl: 'http://localhost:8080/images/icons/progress.gif', name: 'In Progress', id: '10000', statusCategory: { self: 'http://localhost:8080/rest/api/2/statuscategory/4', id: 4, key: 'indeterminate', colorName: 'yellow', name: 'In Progress' } }],
      },
    ],
    'GET /rest/api/2/project/{key}/components': [{ self: 'http://localhost:8080/rest/api/2/component/10000', id: '10000', name: 'Component 1', description: 'This is a JIRA component', project: 'HSP', projectId: 10000 }],
    'GET /rest/api/2/project/{key}/versions': [{ self: 'http://localhost:8080/rest/api/2/version/10000', id: '10000', name: 'New Version 1', archived: false, released: true, projectId: 10000 }],
    'GET /rest/api/2/user/assignable/search': [{ key: 'fred', name: 'fred', emailAddress: 'fred@example.com', displayName: 'Fred F. User', active: true }],
  };

  /** Where `actual` lacks a property of `example`, or has it with another JSON type (lists: their first items). */
  function shapeProblems(example: unknown, actual: unknown, at = '$'): string[] {
    const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
    if (kind(example) !== kind(actual)) return [`${at}: ${kind(actual)} instead of ${kind(example)}`];
    if (Array.isArray(example)) return example.length > 0 && (actual as unknown[]).length > 0 ? shapeProblems(example[0], (actual as unknown[])[0], `${at}[0]`) : [];
    if (kind(example) !== 'object') return [];
    return Object.entries(example as Record<string, unknown>).flatMap(([k, v]) =>
      k in (actual as Record<string, unknown>) ? shapeProblems(v, (actual as Record<string, unknown>)[k], `${at}.${k}`) : [`${at}.${k}: missing`],
    );
  }

  let sim: JiraSimulator;
  let url: string;

  beforeAll(async () => {
    sim = new JiraSimulator({ seed: { issues: [{ summary: 'Задача DC', issueType: 'Task' }] } });
    url = await sim.start();
  });

  afterAll(async () => {
    await sim.stop();
  });

  const get = async (path: string): Promise<unknown> => {
    const response = await fetch(url + path, { headers: { Authorization: 'Bearer pat' } });
    expect(response.status).toBe(200);
    return response.json();
  };

  describe('Data Center REST v2 shapes of the catalogue routes', () => {
    it.each([
      ['GET /rest/api/2/issue/createmeta/{project}/issuetypes', '/rest/api/2/issue/createmeta/AURORA/issuetypes'],
      ['GET /rest/api/2/issue/createmeta/{project}/issuetypes/{id}', '/rest/api/2/issue/createmeta/AURORA/issuetypes/1'],
      ['GET /rest/api/2/issue/createmeta?expand=projects.issuetypes.fields', '/rest/api/2/issue/createmeta?projectKeys=AURORA&expand=projects.issuetypes.fields'],
      ['GET /rest/api/2/issue/{key}/editmeta', '/rest/api/2/issue/AURORA-1/editmeta'],
      ['GET /rest/api/2/project/{key}/statuses', '/rest/api/2/project/AURORA/statuses'],
      ['GET /rest/api/2/project/{key}/components', '/rest/api/2/project/AURORA/components'],
      ['GET /rest/api/2/project/{key}/versions', '/rest/api/2/project/AURORA/versions'],
      ['GET /rest/api/2/user/assignable/search', '/rest/api/2/user/assignable/search?project=AURORA'],
    ])('%s answers as the documentation\'s example', async (name, path) => {
      const answer = await get(path);
      const example = DC_EXAMPLES[name];
      // the createmeta fields page: compare the priority entry with the documented one
      const compared = name.endsWith('{id}') ? { ...(answer as Record<string, unknown>), values: ((answer as { values: Array<{ fieldId: string }> }).values).filter((f) => f.fieldId === 'priority') } : answer;
      expect(shapeProblems(example, compared)).toEqual([]);
    });

    it('the check fails on a wrong shape (a Cloud page given to a DC client)', async () => {
      const cloudPage = await fetch(`${url}/rest/api/3/issue/createmeta/AURORA/issuetypes`, { headers: { Authorization: 'Bearer pat' } }).then((r) => r.json());
      expect(shapeProblems(DC_EXAMPLES['GET /rest/api/2/issue/createmeta/{project}/issuetypes'], cloudPage)).toEqual(['$.isLast: missing', '$.values: missing']);
    });

    it('a DC user is named by its user name, no accountId', async () => {
      const users = (await get('/rest/api/2/user/assignable/search?project=AURORA')) as Array<Record<string, unknown>>;
      expect(users[0]).toEqual(expect.objectContaining({ name: 'jira-bot', key: 'jira-bot' }));
      expect(users[0]).not.toHaveProperty('accountId');
    });
  });
});
