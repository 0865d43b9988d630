import { BatchEntity } from './batch.entity.js';
import { CommandChangeEntity } from './command-change.entity.js';
import { CommandEntity } from './command.entity.js';
import { IdempotencyKeyEntity } from './idempotency-key.entity.js';

/** The tables the Queue module owns (ARCHITECTURE.md, "Table ownership"). */
export const QUEUE_ENTITIES = [BatchEntity, CommandEntity, IdempotencyKeyEntity, CommandChangeEntity];
