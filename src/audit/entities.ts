import { AuditEntity } from './audit.entity.js';

/** The tables the Audit module owns. */
export const AUDIT_ENTITIES = [AuditEntity];
