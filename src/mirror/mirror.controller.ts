import { Body, Controller, Get, Param, Put, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiErrors, AssistantToo, KeyPipe, NoQuery, PageQuery, roleOf } from '../common/index.js';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IssueDetailView, IssueFacetsView, IssueView, ListIssuesQuery, NoteView, PutNoteDto, SyncRunView } from './mirror.dto.js';
import { MirrorService } from './mirror.service.js';

@ApiTags('mirror')
@AssistantToo()
@ApiErrors(400, 401, 403, 404, 422)
@Controller()
export class MirrorController {
  constructor(private readonly mirror: MirrorService) {}

  @Get('issues')
  @ApiOperation({
    summary: 'Mirrored Jira issues (filled by refresh results), ordered by key',
    description: 'A full page carries the header X-Next-Cursor: pass it as `cursor` for the next page.',
  })
  @ApiOkResponse({ type: [IssueView], headers: { 'X-Next-Cursor': { description: 'the cursor of the next page (absent on the last page)', schema: { type: 'string' } } } })
  async issues(@Query() q: ListIssuesQuery, @Res({ passthrough: true }) res: Response): Promise<IssueView[]> {
    const page = await this.mirror.listIssues(q);
    if (page.next_cursor !== null) res.setHeader('X-Next-Cursor', page.next_cursor);
    if (page.total !== null) res.setHeader('X-Total-Count', String(page.total));
    return page.items;
  }

  @Get('issues/facets')
  @ApiOperation({ summary: 'The statuses and sprints the mirror holds (with counts), the number of issues and the last refresh: the choices of the dashboard\'s filters' })
  @ApiOkResponse({ type: IssueFacetsView })
  facets(@Query() _query: NoQuery): Promise<IssueFacetsView> {
    return this.mirror.facets();
  }

  @Get('issues/:key')
  @ApiOperation({ summary: 'One mirrored issue with its links and internal note; a temp key (new:N) reads the issue it was created as (decision 1506)' })
  @ApiOkResponse({ type: IssueDetailView })
  issue(@Param('key', KeyPipe) key: string, @Query() _query: NoQuery): Promise<IssueDetailView> {
    return this.mirror.getIssue(key);
  }

  @Get('notes')
  @ApiOkResponse({ type: [NoteView] })
  notes(@Query() _query: NoQuery): Promise<NoteView[]> {
    return this.mirror.listNotes();
  }

  @Get('notes/:key')
  @ApiOkResponse({ type: NoteView })
  note(@Param('key', KeyPipe) key: string, @Query() _query: NoQuery): Promise<NoteView> {
    return this.mirror.getNote(key);
  }

  @Put('notes/:key')
  @ApiOperation({ summary: 'Create or change the internal note of a Jira key or temp key (never sent to Jira)' })
  @ApiOkResponse({ type: NoteView })
  putNote(@Param('key', KeyPipe) key: string, @Body() dto: PutNoteDto, @Req() req: Request, @Query() _query: NoQuery): Promise<NoteView> {
    // The assistant's notes say so (source `assistant`); a person's stay `api`.
    return this.mirror.putNote(key, dto, roleOf(req) === 'assistant' ? 'assistant' : 'api');
  }

  @Get('sync-runs')
  @ApiOperation({ summary: 'Refresh executions, newest first' })
  @ApiOkResponse({ type: [SyncRunView] })
  syncRuns(@Query() q: PageQuery): Promise<SyncRunView[]> {
    return this.mirror.syncRuns(q.limit ?? 50, q.before_id);
  }
}
