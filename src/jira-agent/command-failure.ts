/** A reason of the agent's own (not Jira's) to fail a command; the message is a Russian sentence for a person. */
export class CommandFailure extends Error {}

/** The stop signal ended a command's execution midway (nothing to report: the hub hands the command out again). */
export class CommandStopped extends Error {}
