import { AgentStatusEntity } from './agent-status.entity.js';
import { DeliveryEntity } from './delivery.entity.js';

/** The tables the Delivery module owns (ARCHITECTURE.md, "Table ownership"). */
export const DELIVERY_ENTITIES = [DeliveryEntity, AgentStatusEntity];
