/** A reason of the agent's own (not Jira's) to fail a command; the message is a Russian sentence for a person. */
export class CommandFailure extends Error {}

/**
 * Jira's answer leaves it unknown whether the command took effect (e.g. a 5xx to POST /issue, which Jira may
 * have carried out): the agent loop handles it like an outage — nothing reported, the command runs again
 * (bounded). The message is Jira's `HTTP <code>: …`.
 */
export class RetryLater extends CommandFailure {}

/** The stop signal ended a command's execution midway (nothing to report: the hub hands the command out again). */
export class CommandStopped extends Error {}
