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

  /** Every message of the answer: errorMessages, then `field: message`, joined by "; ". */
  text(): string {
    return [...this.errorMessages, ...Object.entries(this.errors).map(([field, message]) => `${field}: ${message}`)].join('; ') || this.message;
  }
}

/** A seed entry the store refused as Jira would (an unknown issue type, a link to no issue): which one, and Jira's answer. */
export class SeedEntryError extends Error {
  constructor(
    /** `issues[2]`, `links[0]`: its place in the seed. */
    readonly entry: string,
    readonly refusal: SimError,
  ) {
    super(`seed ${entry}: ${refusal.text()}`);
  }
}

export const notFoundIssue = (): SimError => new SimError(404, ['Issue does not exist or you do not have permission to see it.']);
