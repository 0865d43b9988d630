import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiErrors, Roles } from '../common/index.js';
import { LiveService } from './live.service.js';

@ApiTags('events')
@Roles('client')
@ApiErrors(401, 403)
@Controller('events')
export class LiveController {
  constructor(private readonly live: LiveService) {}

  @Get()
  @ApiOperation({
    summary: 'Server-sent events: batch, command, agent and settings changes after each commit',
    description:
      'A `text/event-stream`. Events: `hello` (on connect), `batch` {change, batch_id, batch: summary}, ' +
      '`command` {change, command_id, batch_id, command, batch}, `agent` {change, agent: GET /agent view}, ' +
      '`settings` {version}; `resync` {reason} when events may have been missed (a replica\'s LISTEN connection came back): load again what is shown; ' +
      'a `: heartbeat` comment every HUB_EVENTS_HEARTBEAT_SECONDS.',
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ description: 'the stream stays open' })
  stream(@Res() res: Response): void {
    this.live.open(res);
  }
}
