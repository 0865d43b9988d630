import { Body, Controller, Get, Param, Put, Query } from '@nestjs/common';
import { ApiErrors } from '../common/api-errors.js';
import { AssistantToo } from '../common/auth.guard.js';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PageQuery } from '../common/page.dto.js';
import { IssueDetailView, IssueView, ListIssuesQuery, NoteView, PutNoteDto, SyncRunView } from './mirror.dto.js';
import { MirrorService } from './mirror.service.js';

@ApiTags('mirror')
@ApiBearerAuth('client')
@ApiBearerAuth('assistant')
@AssistantToo()
@ApiErrors(400, 401, 403, 404, 422)
@Controller()
export class MirrorController {
  constructor(private readonly mirror: MirrorService) {}

  @Get('issues')
  @ApiOperation({ summary: 'Mirrored Jira issues (filled by refresh results)' })
  @ApiOkResponse({ type: [IssueView] })
  issues(@Query() q: ListIssuesQuery): Promise<IssueView[]> {
    return this.mirror.listIssues(q);
  }

  @Get('issues/:key')
  @ApiOperation({ summary: 'One mirrored issue with its links and internal note' })
  @ApiOkResponse({ type: IssueDetailView })
  issue(@Param('key') key: string): Promise<IssueDetailView> {
    return this.mirror.getIssue(key);
  }

  @Get('notes')
  @ApiTags('notes')
  @ApiOkResponse({ type: [NoteView] })
  notes(): Promise<NoteView[]> {
    return this.mirror.listNotes();
  }

  @Get('notes/:key')
  @ApiTags('notes')
  @ApiOkResponse({ type: NoteView })
  note(@Param('key') key: string): Promise<NoteView> {
    return this.mirror.getNote(key);
  }

  @Put('notes/:key')
  @ApiTags('notes')
  @ApiOperation({ summary: 'Create or change the internal note of a Jira key or temp key (never sent to Jira)' })
  @ApiOkResponse({ type: NoteView })
  putNote(@Param('key') key: string, @Body() dto: PutNoteDto): Promise<NoteView> {
    return this.mirror.putNote(key, dto);
  }

  @Get('sync-runs')
  @ApiOperation({ summary: 'Refresh executions, newest first' })
  @ApiOkResponse({ type: [SyncRunView] })
  syncRuns(@Query() q: PageQuery): Promise<SyncRunView[]> {
    return this.mirror.syncRuns(q.limit ?? 50, q.before_id);
  }
}
