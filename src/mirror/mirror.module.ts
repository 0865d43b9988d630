import { Module } from '@nestjs/common';
import { MirrorController } from './mirror.controller.js';
import { MirrorService } from './mirror.service.js';

/** The mirror of Jira, notes and sync runs. Its writes (mirror.store.ts) run inside the queue's report transaction. */
@Module({
  controllers: [MirrorController],
  providers: [MirrorService],
  exports: [MirrorService],
})
export class MirrorModule {}
