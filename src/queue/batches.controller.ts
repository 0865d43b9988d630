import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiErrors } from '../common/api-errors.js';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { callerOf } from '../common/auth.guard.js';
import { IdPipe } from '../common/id.pipe.js';
import { BatchesService } from './batches.service.js';
import { COMMAND_EXAMPLES, CreateBatchDto } from './dto/create-batch.dto.js';
import { ListBatchesQuery } from './dto/queries.dto.js';
import { BatchSummary, BatchView } from './rows.js';

@ApiTags('batches')
@ApiBearerAuth('client')
@ApiErrors(400, 401, 403, 404, 413, 422)
@Controller('batches')
export class BatchesController {
  constructor(private readonly batches: BatchesService) {}

  @Post()
  @ApiOperation({ summary: 'Create a batch of commands (SPEC 5); a tail refresh is appended unless all are refresh' })
  @ApiBody({
    type: CreateBatchDto,
    examples: {
      plan: {
        summary: 'every command type',
        value: { title: 'Планирование спринта 2', commands: Object.entries(COMMAND_EXAMPLES).map(([type, params]) => ({ type, params })) },
      },
      ...Object.fromEntries(
        Object.entries(COMMAND_EXAMPLES).map(([type, params]) => [
          type,
          {
            summary: type,
            value: {
              title: `Пример ${type}`,
              commands: type === 'ensure_issue' || !JSON.stringify(params).includes('new:1') ? [{ type, params }] : [{ type: 'ensure_issue', params: COMMAND_EXAMPLES.ensure_issue }, { type, params }],
            },
          },
        ]),
      ),
    },
  })
  @ApiCreatedResponse({ type: BatchView })
  create(@Body() dto: CreateBatchDto, @Req() req: Request): Promise<BatchView> {
    return this.batches.create(dto, callerOf(req));
  }

  @Get()
  @ApiOperation({ summary: 'Batches, newest first' })
  @ApiOkResponse({ type: [BatchSummary] })
  list(@Query() q: ListBatchesQuery): Promise<BatchSummary[]> {
    return this.batches.list({ status: q.status, limit: q.limit ?? 50, beforeId: q.before_id });
  }

  @Get(':id')
  @ApiOkResponse({ type: BatchView })
  get(@Param('id', IdPipe) id: number): Promise<BatchView> {
    return this.batches.get(id);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel every queued command of the batch (idempotent); a claimed one is left to the agent' })
  @ApiOkResponse({ type: BatchView })
  cancel(@Param('id', IdPipe) id: number): Promise<BatchView> {
    return this.batches.cancel(id);
  }
}
