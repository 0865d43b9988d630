/**
 * Queue's `DeliveryLedger` port (queue/delivery-ledger.ts), implemented over Delivery's repositories:
 * Queue's views read the delivery history, and a force cancel closes the pending handout and frees the
 * agent, all in Queue's own transaction (decision 1000). Wired in AppModule.
 */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DeliveryLedger, DeliveryView } from '../queue/index.js';
import { AgentStatusRepository } from './agent-status.repository.js';
import { DeliveryRepository } from './delivery.repository.js';

@Injectable()
export class DeliveryLedgerAdapter implements DeliveryLedger {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly agents: AgentStatusRepository,
  ) {}

  historyOf(m: EntityManager, commandIds: readonly number[]): Promise<(commandId: number) => DeliveryView[]> {
    return this.deliveries.ofCommands(m, commandIds);
  }

  historyOfCommand(m: EntityManager, commandId: number): Promise<DeliveryView[]> {
    return this.deliveries.ofCommand(m, commandId);
  }

  numbers(m: EntityManager, deliveryIds: readonly number[]): Promise<Map<number, number>> {
    return this.deliveries.numbers(m, deliveryIds);
  }

  async cancelled(m: EntityManager, commandId: number): Promise<void> {
    await this.deliveries.close(m, commandId, 'cancelled');
    await this.agents.releaseCurrent(m, commandId);
  }
}
