import { Module } from '@nestjs/common';
import { MirrorController } from './mirror.controller.js';
import { IssueSearchRepository } from './issue-search.repository.js';
import { issueSearchProvider } from './issue-search.provider.js';
import { IssueRepository } from './issue.repository.js';
import { MirrorService } from './mirror.service.js';
import { NoteRepository } from './note.repository.js';
import { PackageViewRepository } from './package-view.repository.js';
import { SyncRunRepository } from './sync-run.repository.js';

/** The mirror of Jira, notes and sync runs. Its repositories' writes run inside Delivery's claim and report transactions. */
@Module({
  controllers: [MirrorController],
  providers: [MirrorService, issueSearchProvider, IssueRepository, NoteRepository, SyncRunRepository, PackageViewRepository],
  exports: [MirrorService, IssueSearchRepository, IssueRepository, NoteRepository, SyncRunRepository, PackageViewRepository],
})
export class MirrorModule {}
