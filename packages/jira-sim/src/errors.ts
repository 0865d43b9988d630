/** An error the simulator answers in Jira's shape: {errorMessages: [...], errors: {...}}. */
export class SimError extends Error {
  constructor(
    readonly status: number,
    readonly errorMessages: string[],
    readonly errors: Record<string, string> = {},
  ) {
    super(errorMessages[0] ?? Object.values(errors)[0] ?? `HTTP ${status}`);
  }

  body(): { errorMessages: string[]; errors: Record<string, string> } {
    return { errorMessages: this.errorMessages, errors: this.errors };
  }
}

export const notFoundIssue = (): SimError => new SimError(404, ['Issue does not exist or you do not have permission to see it.']);
