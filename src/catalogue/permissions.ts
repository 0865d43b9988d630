/** The Jira permissions each command needs of the agent's account (SPEC 16.2). Pure. */
import type { Catalogue, CommandType } from '@jira-hub/contracts';
import { addFinding, type CommandCheck } from './content-checks.js';

const BY_TYPE: Record<CommandType, string[]> = {
  ensure_issue: ['CREATE_ISSUES'],
  ensure_fields: ['EDIT_ISSUES'],
  ensure_status: ['TRANSITION_ISSUES'],
  ensure_link: ['LINK_ISSUES'],
  // Jira Software: a sprint is set by scheduling and editing the issue
  ensure_sprint: ['SCHEDULE_ISSUES', 'EDIT_ISSUES'],
  ensure_comment: ['ADD_COMMENTS'],
  refresh: ['BROWSE_PROJECTS'],
  refresh_catalogue: ['BROWSE_PROJECTS'],
  remove_link: ['LINK_ISSUES'],
  // the comments a revert removes are the agent's own
  remove_comment: ['DELETE_OWN_COMMENTS'],
  delete_issue: ['DELETE_ISSUES'],
};

/** Jira's names of the permissions, as its permission scheme page shows them. */
export const PERMISSION_NAMES: Record<string, string> = {
  CREATE_ISSUES: 'Create Issues',
  EDIT_ISSUES: 'Edit Issues',
  TRANSITION_ISSUES: 'Transition Issues',
  RESOLVE_ISSUES: 'Resolve Issues',
  ASSIGN_ISSUES: 'Assign Issues',
  SCHEDULE_ISSUES: 'Schedule Issues',
  LINK_ISSUES: 'Link Issues',
  ADD_COMMENTS: 'Add Comments',
  BROWSE_PROJECTS: 'Browse Projects',
  DELETE_ISSUES: 'Delete Issues',
  DELETE_OWN_COMMENTS: 'Delete Own Comments',
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The permissions a command needs: its type's, Assign Issues to set an assignee, Schedule Issues for a due date, and those it noted. */
export function permissionsOf(c: CommandCheck): string[] {
  const fields = c.type === 'ensure_issue' ? (isObject(c.params.fields) ? c.params.fields : {}) : c.type === 'ensure_fields' ? c.params : {};
  return [
    ...BY_TYPE[c.type],
    ...(fields.assignee !== undefined ? ['ASSIGN_ISSUES'] : []),
    ...(fields.duedate !== undefined && c.type === 'ensure_fields' ? ['SCHEDULE_ISSUES'] : []),
    ...(c.needs ?? []),
  ].filter((p, i, all) => all.indexOf(p) === i);
}

export function permissionFindings(c: CommandCheck, catalogue: Catalogue): void {
  for (const p of permissionsOf(c)) {
    const held = catalogue.permissions[p];
    const name = PERMISSION_NAMES[p] ?? p;
    if (held === false) {
      addFinding(c, 'type', 'permission', `у учётной записи агента нет права «${name}» (${p}) в проекте ${catalogue.project_key}`, `попросите администратора Jira выдать право «${name}» или уберите команду`);
    } else if (held === undefined) {
      c.unknown.push(`каталог не знает, есть ли у агента право ${p}`);
    }
  }
}
