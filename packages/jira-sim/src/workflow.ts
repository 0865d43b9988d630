/** Workflows of the simulated project: per issue type, with status ids and categories (pure, over the seed). */
import type { SimSeed, SimWorkflow } from './types.js';

/** The workflow of an issue type: its own (seed `workflows`), else the seed's default one. */
export function workflowOf(seed: SimSeed, issueType: string): SimWorkflow {
  return seed.workflows?.[issueType] ?? { statuses: seed.statuses, initialStatus: seed.initialStatus, transitions: seed.transitions };
}

/** Every status of the instance: the default workflow's first, then those only other workflows have. */
export function allStatuses(seed: SimSeed): string[] {
  const all = [...seed.statuses];
  for (const workflow of Object.values(seed.workflows ?? {})) for (const status of workflow.statuses) if (!all.includes(status)) all.push(status);
  return all;
}

/** A status's id: its 1-based place in allStatuses ("0" for a status the seed does not know). */
export function statusId(seed: SimSeed, name: string): string {
  return String(allStatuses(seed).indexOf(name) + 1);
}

export type StatusCategoryKey = 'new' | 'indeterminate' | 'done';

/** A status's category: the first status of a workflow is `new`, its last `done`, the rest `indeterminate`. */
export function statusCategory(seed: SimSeed, name: string): StatusCategoryKey {
  const workflows = [workflowOf(seed, ''), ...Object.values(seed.workflows ?? {})];
  for (const { statuses } of workflows) {
    const i = statuses.indexOf(name);
    if (i < 0) continue;
    return i === 0 ? 'new' : i === statuses.length - 1 ? 'done' : 'indeterminate';
  }
  return 'indeterminate';
}

const CATEGORY_NAMES: Record<StatusCategoryKey, { id: number; name: string; colorName: string }> = {
  new: { id: 2, name: 'To Do', colorName: 'blue-gray' },
  indeterminate: { id: 4, name: 'In Progress', colorName: 'yellow' },
  done: { id: 3, name: 'Done', colorName: 'green' },
};

/** Jira's statusCategory object of a status. */
export function renderStatusCategory(seed: SimSeed, name: string, base: string): Record<string, unknown> {
  const key = statusCategory(seed, name);
  const c = CATEGORY_NAMES[key];
  return { self: `${base}/statuscategory/${c.id}`, id: c.id, key, colorName: c.colorName, name: c.name };
}
