/** The delivery module's public surface: what other modules import of it. */
export { AgentStatusService } from './agent-status.service.js';
export type { AgentStatusView } from './agent.dto.js';
export { DeliveryLedgerAdapter } from './delivery-ledger.adapter.js';
export { DeliveryModule } from './delivery.module.js';
