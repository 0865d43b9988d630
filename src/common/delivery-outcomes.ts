/**
 * How a handout of a command ended (SPEC 15.3): the Delivery module's `delivery.outcome`, shown by Queue's
 * command views. Here, below both, as the command types are.
 */
export const DELIVERY_OUTCOMES = ['pending', 'reported_done', 'reported_failed', 'released', 'lost', 'expired', 'cancelled', 'confirmed_by_state'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];
