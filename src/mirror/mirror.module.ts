import { Module } from '@nestjs/common';
import { MirrorController } from './mirror.controller.js';
import { IssueSearchRepository } from './issue-search.repository.js';
import { issueSearchProvider } from './issue-search.provider.js';
import { MirrorService } from './mirror.service.js';

/** The mirror of Jira, notes and sync runs. Its writes (mirror.store.ts) run inside the queue's report transaction. */
@Module({
  controllers: [MirrorController],
  providers: [MirrorService, issueSearchProvider],
  exports: [MirrorService, IssueSearchRepository],
})
export class MirrorModule {}
