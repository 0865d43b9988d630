import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiErrors, AssistantToo, callerFrom, ForbiddenError, IdPipe, NoBody, NoQuery, roleOf } from '../common/index.js';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { BatchesService } from './batches.service.js';
import { CancelCommandDto, ListCommandsQuery } from './dto/queries.dto.js';
import { OverviewService } from './overview.service.js';
import { FailedCommandView } from './overview.view.js';
import { BatchView, CommandView } from './rows.js';

@ApiTags('commands')
@AssistantToo()
@ApiErrors(400, 401, 403, 404, 409, 422)
@Controller('commands')
export class CommandsController {
  constructor(
    private readonly batches: BatchesService,
    private readonly overview: OverviewService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Failed commands across batches, the latest first, with their batch title (status=failed; history not included)' })
  @ApiOkResponse({ type: [FailedCommandView] })
  list(@Query() q: ListCommandsQuery): Promise<FailedCommandView[]> {
    return this.overview.failed(q.limit ?? 50, q.before_id);
  }

  @Get(':id')
  @ApiOkResponse({ type: CommandView })
  get(@Param('id', IdPipe) id: number, @Query() _query: NoQuery): Promise<CommandView> {
    return this.batches.getCommand(id);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel a queued command; a claimed one only with force (409 claimed; the assistant gets 403 for force); a finished one → 409 finished',
  })
  @ApiOkResponse({ type: CommandView })
  cancel(@Param('id', IdPipe) id: number, @Body() dto: CancelCommandDto, @Req() req: Request, @Query() _query: NoQuery): Promise<CommandView> {
    // SPEC 15.1: the assistant cancels queued commands only; what the agent holds is a person's call.
    if (dto.force === true && roleOf(req) === 'assistant') {
      throw new ForbiddenError('ассистенту это недоступно: отменить выданную агенту команду (force) может только человек');
    }
    return this.batches.cancelCommand(id, dto.force === true);
  }

  @Post(':id/retry')
  @ApiOperation({
    summary: 'Repeat a failed, cancelled or skipped command in a new batch «Повтор команды #id» (its source is the caller\'s: approval applies)',
  })
  @ApiCreatedResponse({ type: BatchView })
  retry(@Param('id', IdPipe) id: number, @Req() req: Request, @Query() _query: NoQuery, @Body() _body: NoBody): Promise<BatchView> {
    return this.batches.retry(id, callerFrom(req));
  }
}
