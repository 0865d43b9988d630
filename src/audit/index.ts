/** The audit module's public surface: what other modules import of it. */
export { AuditModule } from './audit.module.js';
export { AuditService } from './audit.service.js';
