import { Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { QueueModule } from '../queue/index.js';
import { SettingsModule } from '../settings/index.js';
import { AuditController } from './audit.controller.js';
import { AuditMiddleware } from './audit.middleware.js';
import { AuditRepository } from './audit.repository.js';
import { AuditService } from './audit.service.js';

/** The audit of an AI assistant's calls (issue 22): owns the `audit` table; GET /audit, POST /audit. A refused call on a command is recorded on its batch, which Queue's BatchesService tells. */
@Module({
  imports: [SettingsModule, QueueModule],
  controllers: [AuditController],
  providers: [AuditRepository, AuditService],
  exports: [AuditRepository, AuditService],
})
export class AuditModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(AuditMiddleware).forRoutes('*');
  }
}
