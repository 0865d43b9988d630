import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiErrors, AssistantToo, JiraKeyPipe, NoQuery } from '../common/index.js';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IssueChangeView } from './change.view.js';
import { ChangesService } from './changes.service.js';

/** The audit view (SPEC 17): every change the hub made to one issue, from the change record the queue keeps. */
@ApiTags('mirror')
@AssistantToo()
@ApiErrors(401, 403, 422)
@Controller('issues')
export class IssueChangesController {
  constructor(private readonly changes: ChangesService) {}

  @Get(':key/changes')
  @ApiOperation({ summary: 'Every change the hub made to the issue, oldest first: batch, author, approver, before → after' })
  @ApiOkResponse({ type: [IssueChangeView] })
  list(@Param('key', JiraKeyPipe) key: string, @Query() _query: NoQuery): Promise<IssueChangeView[]> {
    return this.changes.forIssue(key);
  }
}
