/** The mirror module's public surface: what other modules import of it. */
export { GONE_WHY, goneRun, goneWhy } from './gone.js';
export type { MissingKeys } from './gone.js';
export { IssueRepository } from './issue.repository.js';
export type { MirrorIssue, MirrorLookup } from './mirror-lookup.js';
export { MirrorModule } from './mirror.module.js';
export { NOTE_KEYS } from './note-keys.js';
export type { NoteKeys } from './note-keys.js';
export { NOTE_LIMITS } from './note-limits.js';
export { NoteRepository } from './note.repository.js';
export { PackageViewRepository } from './package-view.repository.js';
export type { ExportFilter, ExportNote, MirrorLink, PackageMirrorIssue } from './package-view.repository.js';
export { parseRefreshResult } from './refresh-result.js';
export type { RefreshResult } from './refresh-result.js';
export { SyncRunRepository, partsOf, syncMark } from './sync-run.repository.js';
