/** A project's catalogue for the checks' tests (a small Jira project: three issue types, a workflow with a review step). */
import { expect } from '@jest/globals';
import type { Catalogue, CatalogueScreenField, CatalogueTypeConfig } from '@jira-hub/contracts';
import { agentOf, type TestHub } from './app.js';

const field = (field_id: string, name: string, extra: Partial<CatalogueScreenField> = {}): CatalogueScreenField => ({ field_id, name, required: false, has_default: false, ...extra });

const WORKFLOW: Pick<CatalogueTypeConfig, 'statuses' | 'transitions' | 'initial_status'> = {
  statuses: [
    { id: '1', name: 'To Do', category: 'new' },
    { id: '2', name: 'In Progress', category: 'indeterminate' },
    { id: '3', name: 'Review', category: 'indeterminate' },
    { id: '4', name: 'Done', category: 'done' },
    { id: '5', name: 'Rejected', category: 'done' },
  ],
  initial_status: 'To Do',
  transitions: [
    { from: 'To Do', to: 'In Progress', id: '11', name: 'Start', required_fields: [] },
    { from: 'In Progress', to: 'Review', id: '21', name: 'Review', required_fields: [] },
    { from: 'Review', to: 'Done', id: '31', name: 'Accept', required_fields: ['resolution'] },
    { from: 'Review', to: 'Rejected', id: '32', name: 'Reject', required_fields: ['resolution', 'customfield_10040'] },
    { from: null, to: 'To Do', id: '41', name: 'Reopen', required_fields: [] },
  ],
};

const TASK_CREATE = [
  field('summary', 'Summary', { required: true }),
  field('issuetype', 'Issue Type', { required: true }),
  field('description', 'Description'),
  field('priority', 'Priority', { has_default: true, allowed_values: ['Highest', 'High', 'Medium', 'Low'] }),
  field('labels', 'Labels'),
  field('assignee', 'Assignee'),
  field('duedate', 'Due date'),
  field('components', 'Components'),
  field('customfield_10030', 'Team', { allowed_values: ['Alpha', 'Beta'] }),
];

export const CATALOGUE: Catalogue = {
  project_key: 'AURORA',
  flavor: 'cloud',
  issue_types: [
    { id: '10001', name: 'Task', subtask: false, hierarchy_level: 0 },
    { id: '10002', name: 'Sub-task', subtask: true, hierarchy_level: -1 },
    { id: '10003', name: 'Epic', subtask: false, hierarchy_level: 1 },
  ],
  fields: [
    { id: 'summary', name: 'Summary' },
    { id: 'description', name: 'Description' },
    { id: 'priority', name: 'Priority' },
    { id: 'labels', name: 'Labels' },
    { id: 'assignee', name: 'Assignee' },
    { id: 'duedate', name: 'Due date' },
    { id: 'components', name: 'Components' },
    { id: 'customfield_10011', name: 'Epic Name' },
    { id: 'customfield_10020', name: 'Story Points' },
    { id: 'customfield_10030', name: 'Team' },
  ],
  per_type: {
    '10001': { create: TASK_CREATE, edit: [...TASK_CREATE.filter((f) => f.field_id !== 'issuetype'), field('customfield_10020', 'Story Points')], ...WORKFLOW },
    '10002': { create: [...TASK_CREATE, field('parent', 'Parent', { required: true })], edit: null, ...WORKFLOW },
    '10003': { create: [...TASK_CREATE, field('customfield_10011', 'Epic Name', { required: true })], edit: TASK_CREATE, ...WORKFLOW },
  },
  transitions_source: 'workflow',
  link_types: [
    { id: '1', name: 'Blocks', outward: 'blocks', inward: 'is blocked by' },
    { id: '2', name: 'Relates', outward: 'relates to', inward: 'relates to' },
    { id: '3', name: 'Duplicate', outward: 'duplicates', inward: 'is duplicated by' },
  ],
  boards: [
    { id: 1, name: 'AURORA board' },
    { id: 2, name: 'Поддержка' },
  ],
  sprints: [
    { id: 11, name: 'Спринт 2', state: 'active', board_id: 1 },
    { id: 12, name: 'Спринт 3', state: 'future', board_id: 1 },
    { id: 21, name: 'Спринт 3', state: 'future', board_id: 2 },
    { id: 10, name: 'Спринт 1', state: 'closed', board_id: 1 },
  ],
  priorities: ['Highest', 'High', 'Medium', 'Low'],
  components: ['Backend', 'Frontend'],
  versions: ['1.0', '2.0'],
  permissions: {
    BROWSE_PROJECTS: true,
    CREATE_ISSUES: true,
    EDIT_ISSUES: true,
    TRANSITION_ISSUES: true,
    RESOLVE_ISSUES: true,
    ASSIGN_ISSUES: true,
    SCHEDULE_ISSUES: true,
    LINK_ISSUES: true,
    ADD_COMMENTS: true,
  },
  assignable: [
    { id: 'ivanov', display_name: 'Иван Иванов' },
    { id: 'petrov', display_name: 'Пётр Петров' },
  ],
  assignable_truncated: false,
};

/** Asks for the catalogue and reports it as the agent would: claim the refresh_catalogue, report `{catalogue}`. */
export async function reportCatalogue(hub: TestHub, catalogue: object = CATALOGUE): Promise<void> {
  await hub.http.post('/catalogue/refresh').expect(201);
  const agent = agentOf(hub);
  const { command } = await agent.claim();
  expect(command).toMatchObject({ type: 'refresh_catalogue', params: {} });
  await agent.done(command.id, { catalogue });
}
