import type { SimSeed, SimSystemField } from './types.js';

/** System fields as GET /field describes them (names as Jira shows them). */
export const SYSTEM_FIELDS: SimSystemField[] = [
  { id: 'summary', name: 'Summary', schema: { type: 'string', system: 'summary' } },
  { id: 'description', name: 'Description', schema: { type: 'string', system: 'description' } },
  { id: 'environment', name: 'Environment', schema: { type: 'string', system: 'environment' } },
  { id: 'issuetype', name: 'Issue Type', schema: { type: 'issuetype', system: 'issuetype' } },
  { id: 'status', name: 'Status', schema: { type: 'status', system: 'status' } },
  { id: 'assignee', name: 'Assignee', schema: { type: 'user', system: 'assignee' } },
  { id: 'reporter', name: 'Reporter', schema: { type: 'user', system: 'reporter' } },
  { id: 'priority', name: 'Priority', schema: { type: 'priority', system: 'priority' } },
  { id: 'duedate', name: 'Due date', schema: { type: 'date', system: 'duedate' } },
  { id: 'labels', name: 'Labels', schema: { type: 'array', items: 'string', system: 'labels' } },
  { id: 'components', name: 'Components', schema: { type: 'array', items: 'component', system: 'components' } },
  { id: 'fixVersions', name: 'Fix versions', schema: { type: 'array', items: 'version', system: 'fixVersions' } },
  { id: 'versions', name: 'Affects versions', schema: { type: 'array', items: 'version', system: 'versions' } },
  { id: 'created', name: 'Created', schema: { type: 'datetime', system: 'created' } },
  { id: 'updated', name: 'Updated', schema: { type: 'datetime', system: 'updated' } },
  { id: 'issuelinks', name: 'Linked Issues', schema: { type: 'array', items: 'issuelinks', system: 'issuelinks' } },
  { id: 'parent', name: 'Parent', schema: { type: 'issuelink', system: 'parent' } },
  { id: 'project', name: 'Project', schema: { type: 'project', system: 'project' } },
];

/** Default seed: one project, the usual issue types, a three-status workflow, one scrum board with two sprints. */
export function defaultSeed(projectKey = 'AURORA'): SimSeed {
  return {
    projects: [{ id: '10000', key: projectKey, name: `Project ${projectKey}` }],
    issueTypes: ['Task', 'Story', 'Bug', 'Epic', 'Sub-task'],
    statuses: ['To Do', 'In Progress', 'Done'],
    initialStatus: 'To Do',
    transitions: [
      { id: '11', name: 'Start', from: ['To Do'], to: 'In Progress' },
      { id: '21', name: 'Finish', from: ['In Progress'], to: 'Done', requiredFields: ['resolution'] },
      { id: '31', name: 'Reopen', from: ['Done'], to: 'To Do' },
      { id: '41', name: 'Stop', from: ['In Progress'], to: 'To Do' },
    ],
    // Bugs pass a review: an intermediate status, and a validator (an assignee) on the way out of it.
    workflows: {
      Bug: {
        statuses: ['To Do', 'In Progress', 'In Review', 'Done'],
        initialStatus: 'To Do',
        transitions: [
          { id: '11', name: 'Start', from: ['To Do'], to: 'In Progress' },
          { id: '51', name: 'Review', from: ['In Progress'], to: 'In Review' },
          { id: '61', name: 'Approve', from: ['In Review'], to: 'Done', requiredFields: ['resolution'], validator: { field: 'assignee', message: 'Assignee is required.' } },
          { id: '71', name: 'Rework', from: ['In Review'], to: 'In Progress' },
          { id: '31', name: 'Reopen', from: ['Done'], to: 'To Do' },
        ],
      },
    },
    linkTypes: [
      { id: '10000', name: 'Blocks', inward: 'is blocked by', outward: 'blocks' },
      { id: '10003', name: 'Relates', inward: 'relates to', outward: 'relates to' },
      { id: '10002', name: 'Duplicate', inward: 'is duplicated by', outward: 'duplicates' },
    ],
    boards: [{ id: 1, name: `${projectKey} board`, type: 'scrum', projectKey }],
    sprints: [
      { id: 1, name: 'Спринт 1', state: 'active', boardId: 1 },
      { id: 2, name: 'Спринт 2', state: 'future', boardId: 1 },
    ],
    users: [
      { accountId: '557058:f0000000-0000-0000-0000-000000000001', name: 'jira-bot', displayName: 'Jira Bot', emailAddress: 'bot@example.com' },
      { accountId: '557058:f0000000-0000-0000-0000-000000000002', name: 'ivanov', displayName: 'Иван Иванов', emailAddress: 'ivanov@example.com' },
      { accountId: '557058:f0000000-0000-0000-0000-000000000003', name: 'petrova', displayName: 'Анна Петрова', emailAddress: 'petrova@example.com' },
    ],
    priorities: ['Highest', 'High', 'Medium', 'Low', 'Lowest'],
    defaultPriority: 'Medium',
    customFields: [
      { id: 'customfield_10020', name: 'Sprint', custom: 'com.pyxis.greenhopper.jira:gh-sprint', type: 'array' },
      { id: 'customfield_10016', name: 'Story Points', custom: 'com.atlassian.jira.plugin.system.customfieldtypes:float', type: 'number' },
      { id: 'customfield_10050', name: 'Team', custom: 'com.atlassian.jira.plugin.system.customfieldtypes:textfield', type: 'string' },
      { id: 'customfield_10070', name: 'Severity', custom: 'com.atlassian.jira.plugin.system.customfieldtypes:select', type: 'option', options: ['High', 'Medium', 'Low'] },
      { id: 'customfield_10071', name: 'Platforms', custom: 'com.atlassian.jira.plugin.system.customfieldtypes:multiselect', type: 'array', items: 'option', options: ['web', 'ios', 'android'] },
      { id: 'customfield_10072', name: 'Reviewer', custom: 'com.atlassian.jira.plugin.system.customfieldtypes:userpicker', type: 'user' },
      { id: 'customfield_10073', name: 'Release date', custom: 'com.atlassian.jira.plugin.system.customfieldtypes:datepicker', type: 'date' },
      { id: 'customfield_10074', name: 'Notes', custom: 'com.atlassian.jira.plugin.system.customfieldtypes:textarea', type: 'string' },
      { id: 'customfield_10075', name: 'Approvers', custom: 'com.atlassian.jira.plugin.system.customfieldtypes:multiuserpicker', type: 'array', items: 'user' },
      { id: 'customfield_10014', name: 'Epic Link', custom: 'com.pyxis.greenhopper.jira:gh-epic-link', type: 'any' },
      { id: 'customfield_10011', name: 'Epic Name', custom: 'com.pyxis.greenhopper.jira:gh-epic-label', type: 'string' },
    ],
    resolutions: ['Done', "Won't Do"],
    components: ['Backend', 'Frontend'],
    versions: ['1.0', '2.0'],
    epicLinkFieldId: 'customfield_10014',
    epicNameFieldId: 'customfield_10011',
    sprintFieldId: 'customfield_10020',
    issues: [],
    links: [],
  };
}
