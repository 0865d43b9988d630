/** A reason of the agent's own (not Jira's) to fail a command; the message is a Russian sentence for a person. */
export class CommandFailure extends Error {}
