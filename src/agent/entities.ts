import { AgentStatusEntity } from './agent-status.entity.js';

/** The tables the Agent module owns (ARCHITECTURE.md, "Table ownership"). */
export const AGENT_ENTITIES = [AgentStatusEntity];
