/**
 * The port through which Queue reaches the delivery history and the agent's current command, owned by
 * the Delivery module above it (decision 1000): Queue's views show each command's handouts, and a force
 * cancel closes the pending handout and frees the agent, in the cancel's own transaction. Delivery
 * implements it; AppModule wires it (`DELIVERY_LEDGER`), so Queue never imports Delivery.
 */
import type { EntityManager } from 'typeorm';
import type { DeliveryView } from './rows.js';

export const DELIVERY_LEDGER = Symbol('DeliveryLedger');

export interface DeliveryLedger {
  /** The handouts of each of these commands (a batch's), oldest first (SPEC 15.3). */
  historyOf(m: EntityManager, commandIds: readonly number[]): Promise<(commandId: number) => DeliveryView[]>;
  historyOfCommand(m: EntityManager, commandId: number): Promise<DeliveryView[]>;
  /** The number (1, 2, …) of each delivery id among these: the handout whose report carried a change. */
  numbers(m: EntityManager, deliveryIds: readonly number[]): Promise<Map<number, number>>;
  /** A command force-cancelled while handed out (SPEC 6.7): its pending handout closes as `cancelled`, the agent holds it no more. */
  cancelled(m: EntityManager, commandId: number): Promise<void>;
}
