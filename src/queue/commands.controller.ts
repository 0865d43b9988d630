import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiErrors } from '../common/api-errors.js';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { callerOf } from '../common/auth.guard.js';
import { IdPipe } from '../common/id.pipe.js';
import { BatchesService } from './batches.service.js';
import { CancelCommandDto } from './dto/queries.dto.js';
import { BatchView, CommandView } from './rows.js';

@ApiTags('commands')
@ApiBearerAuth('client')
@ApiErrors(400, 401, 403, 404, 409, 422)
@Controller('commands')
export class CommandsController {
  constructor(private readonly batches: BatchesService) {}

  @Get(':id')
  @ApiOkResponse({ type: CommandView })
  get(@Param('id', IdPipe) id: number): Promise<CommandView> {
    return this.batches.getCommand(id);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a queued command; a claimed one only with force (409 claimed); a finished one → 409 finished' })
  @ApiOkResponse({ type: CommandView })
  cancel(@Param('id', IdPipe) id: number, @Body() dto: CancelCommandDto): Promise<CommandView> {
    return this.batches.cancelCommand(id, dto.force === true);
  }

  @Post(':id/retry')
  @ApiOperation({ summary: 'Repeat a failed, cancelled or skipped command in a new batch «Повтор команды #id»' })
  @ApiCreatedResponse({ type: BatchView })
  retry(@Param('id', IdPipe) id: number, @Req() req: Request): Promise<BatchView> {
    return this.batches.retry(id, callerOf(req));
  }
}
