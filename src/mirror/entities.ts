import { IssueLabelEntity } from './issue-label.entity.js';
import { IssueLinkEntity } from './issue-link.entity.js';
import { IssueNoteEntity } from './issue-note.entity.js';
import { IssueEntity } from './issue.entity.js';
import { SyncRunEntity } from './sync-run.entity.js';

/** The tables the Mirror module owns (ARCHITECTURE.md, "Table ownership"). */
export const MIRROR_ENTITIES = [IssueEntity, IssueLabelEntity, IssueLinkEntity, IssueNoteEntity, SyncRunEntity];
