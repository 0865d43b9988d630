import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiErrors, AssistantToo, BulkWork, callerFrom, callerOf, IdPipe, NoBody, NoQuery, Roles, sourceOf, ValidationFailedError } from '../common/index.js';
import {
  ApiCreatedResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { BatchesService } from './batches.service.js';
import { ApiBatchBody, CreateBatchDto } from './dto/create-batch.dto.js';
import { ApproveBatchDto, ListBatchesQuery, RejectBatchDto, RevertQuery } from './dto/queries.dto.js';
import { RevertService } from './revert.service.js';
import { RevertView } from './revert.view.js';
import { PlanService } from './plan.service.js';
import { OverviewService } from './overview.service.js';
import { BatchStatusCountsView } from './overview.view.js';
import { PlanView } from './plan.view.js';
import { BatchSummary, BatchView } from './rows.js';
import { CancelBatchView } from './cancel.view.js';

/** An Idempotency-Key: 1..200 visible ASCII characters. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

@ApiTags('batches')
@AssistantToo()
@ApiErrors(400, 401, 403, 404, 413, 422)
@Controller('batches')
export class BatchesController {
  constructor(
    private readonly batches: BatchesService,
    private readonly planner: PlanService,
    private readonly overview: OverviewService,
    private readonly reverts: RevertService,
  ) {}

  @Post()
  @BulkWork()
  @ApiOperation({
    summary: 'Create a batch of commands (SPEC 5); a tail refresh is appended unless all are refresh',
    description:
      "A batch from a source the `approval` setting names (by default the assistant's) waits in `awaiting_approval` until a person approves it. " +
      'With an Idempotency-Key, a repeat of the same body answers the first batch (200, Idempotent-Replayed: true); another body → 422 idempotency_mismatch.',
  })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: '1..200 visible ASCII characters; kept at least 24 h' })
  @ApiHeader({ name: 'X-Hub-Source', required: false, description: '`assistant`: the request is the assistant\'s (open mode, or a client token stepping down)' })
  @ApiBatchBody()
  @ApiCreatedResponse({ type: BatchView })
  @ApiOkResponse({ type: BatchView, description: 'a replay of an Idempotency-Key: the first batch, header Idempotent-Replayed: true' })
  async create(
    @Body() dto: CreateBatchDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @Query() _query: NoQuery,
    @Headers('idempotency-key') key?: string,
  ): Promise<BatchView> {
    if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
      const detail = 'заголовок Idempotency-Key: от 1 до 200 видимых символов ASCII';
      throw new ValidationFailedError(detail, [{ field: 'Idempotency-Key', detail }]);
    }
    const { view, replayed } = await this.batches.create(dto, callerFrom(req), key);
    if (replayed) res.status(200).setHeader('Idempotent-Replayed', 'true');
    return view;
  }

  @Post('plan')
  @BulkWork()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Dry run of a batch body: the 422 findings of a submit, the estimate, a verdict per command against the mirror; writes nothing',
  })
  @ApiBatchBody()
  @ApiOkResponse({ type: PlanView })
  plan(@Body() dto: CreateBatchDto, @Req() req: Request, @Query() _query: NoQuery): Promise<PlanView> {
    return this.planner.plan(dto, sourceOf(req));
  }

  @Get()
  @ApiOperation({ summary: 'Batches, newest first' })
  @ApiOkResponse({ type: [BatchSummary] })
  list(@Query() q: ListBatchesQuery): Promise<BatchSummary[]> {
    return this.batches.list({ status: q.status, limit: q.limit ?? 50, beforeId: q.before_id });
  }

  @Get('counts')
  @ApiOperation({ summary: 'How many batches are in each state (done_with_errors: finished with a failed or skipped command), and failed commands' })
  @ApiOkResponse({ type: BatchStatusCountsView })
  counts(@Query() _query: NoQuery): Promise<BatchStatusCountsView> {
    return this.overview.counts();
  }

  @Get(':id')
  @ApiOkResponse({ type: BatchView })
  get(@Param('id', IdPipe) id: number, @Query() _query: NoQuery): Promise<BatchView> {
    return this.batches.get(id);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiErrors(409)
  @ApiOperation({
    summary: 'Cancel every queued command of the batch (idempotent); a claimed one is left to the agent',
    description: 'The answer says how many commands were cancelled and which one is still with the agent. A batch whose commands have all ended and which was never cancelled → 409 finished, nothing changes.',
  })
  @ApiOkResponse({ type: CancelBatchView })
  cancel(@Param('id', IdPipe) id: number, @Query() _query: NoQuery, @Body() _body: NoBody): Promise<CancelBatchView> {
    return this.batches.cancel(id);
  }

  @Post(':id/revert')
  @BulkWork()
  @ApiErrors(409)
  @ApiOperation({
    summary: 'Revert a batch (SPEC 17.2): a new batch «Откат пакета #id» of the inverse commands, newest first, under the approval rule of the caller',
    description:
      'Changes the mirror no longer shows as the batch left them are listed as `conflicts` and left alone. `?dry_run=true` writes nothing (200). ' +
      'A conflict with `retry_later: true` is not final (the mirror has not seen the change yet, another batch still changes it): while one is listed the revert is refused (409), ' +
      'unless `leave_pending` says to leave them (decision 1467): `?leave_pending=<pending_token>` with the dry run\'s `pending_token` leaves exactly the ones that dry run listed, ' +
      'refused (409) when the list has changed since (decision 1491); `?leave_pending=true` leaves whatever is listed at that moment. ' +
      '409 conflict: the batch is reverted already, not finished, has `retry_later` conflicts (or others than the `pending_token` given), or there is nothing to revert.',
  })
  @ApiCreatedResponse({ type: RevertView })
  @ApiOkResponse({ type: RevertView, description: 'dry_run=true: the plan, nothing written' })
  async revert(@Param('id', IdPipe) id: number, @Query() q: RevertQuery, @Req() req: Request, @Res({ passthrough: true }) res: Response, @Body() _body: NoBody): Promise<RevertView> {
    const view = await this.reverts.revert(id, callerFrom(req), q.dry_run === true, q.leave_pending ?? false);
    res.status(view.dry_run ? 200 : 201);
    return view;
  }

  @Post(':id/approve')
  @HttpCode(200)
  @Roles('client')
  @ApiErrors(409)
  @ApiOperation({
    summary: 'Approve a batch awaiting approval (client token only): it runs after every batch runnable now; 409 conflict when not awaiting',
    description: 'A revert (SPEC 17.2) is not approved (409 conflict) when it would put back a change made since it was asked for (decision 0120): reject it and ask for the revert again.',
  })
  @ApiOkResponse({ type: BatchView })
  approve(@Param('id', IdPipe) id: number, @Body() dto: ApproveBatchDto, @Req() req: Request, @Query() _query: NoQuery): Promise<BatchView> {
    return this.reverts.approve(id, dto.by?.trim() || callerOf(req));
  }

  @Post(':id/reject')
  @HttpCode(200)
  @Roles('client')
  @ApiErrors(409)
  @ApiOperation({ summary: 'Reject a batch awaiting approval (client token only): it is cancelled with the reason; 409 conflict when not awaiting' })
  @ApiOkResponse({ type: BatchView })
  reject(@Param('id', IdPipe) id: number, @Body() dto: RejectBatchDto, @Query() _query: NoQuery): Promise<BatchView> {
    return this.batches.reject(id, dto.reason);
  }
}
