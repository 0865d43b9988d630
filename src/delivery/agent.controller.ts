import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { AgentCall, AgentRoute, ApiErrors, AssistantToo, IdPipe, NoQuery } from '../common/index.js';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { DeliveryService, type ClaimAnswer } from './delivery.service.js';
import { CommandView } from '../queue/index.js';
import { AgentSettingsView, SettingsService } from '../settings/index.js';
import { AgentStatusService } from './agent-status.service.js';
import { AgentStatusView, ClaimDto, ClaimView, QueuedStatusesView, ReportClaimView, ReportDto } from './agent.dto.js';
import { ClaimService } from './claim.service.js';

/** A claim's answer as the API gives it (POST /agent/claim, and `next` of the merged call). */
const claimView = ({ command, settingsVersion }: ClaimAnswer): ClaimView => ({ command, settings_version: settingsVersion });

/** An AbortSignal that fires when the client goes away before its answer is sent. */
function closedSignal(res: Response): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

@ApiTags('agent')
@ApiErrors(400, 401, 403, 404, 409, 413, 422)
@Controller('agent')
export class AgentController {
  constructor(
    private readonly delivery: DeliveryService,
    private readonly claims: ClaimService,
    private readonly settings: SettingsService,
    private readonly status: AgentStatusService,
  ) {}

  @Get()
  @AssistantToo()
  @ApiOperation({ summary: 'Agent status for people and the assistant (client or assistant token)' })
  @ApiOkResponse({ type: AgentStatusView })
  get(@Query() _query: NoQuery): Promise<AgentStatusView> {
    return this.status.status();
  }

  @Post('claim')
  @HttpCode(200)
  @AgentRoute()
  @AgentCall()
  @ApiOperation({ summary: 'Take the next command (or the unfinished one again); long poll with wait_seconds' })
  @ApiBody({ type: ClaimDto, required: false, description: 'optional: an empty body claims without waiting' })
  @ApiOkResponse({ type: ClaimView })
  async claim(@Body() dto: ClaimDto, @Res({ passthrough: true }) res: Response, @Query() _query: NoQuery): Promise<ClaimView> {
    const { wait_seconds, ...info } = dto;
    return claimView(await this.claims.claim(info, wait_seconds ?? 0, closedSignal(res)));
  }

  @Post('commands/:id/result')
  @HttpCode(200)
  @AgentRoute()
  @AgentCall()
  @ApiOperation({ summary: "Report a command's result (done or failed), or one part of a large refresh result (partial, SPEC 15.5); idempotent for finished commands. With `claim`, the same transaction also claims the next command (the merged call)" })
  @ApiOkResponse({ type: ReportClaimView, description: 'the command as it is now; with `next` only when the report carried `claim`' })
  async report(@Param('id', IdPipe) id: number, @Body() dto: ReportDto, @Query() _query: NoQuery): Promise<CommandView | ReportClaimView> {
    const { claim, ...report } = dto;
    if (!claim) return this.delivery.report(id, report);
    const { view, next } = await this.claims.reportAndClaim(id, report, claim);
    return { ...view, next: claimView(next) };
  }

  @Get('queued-statuses')
  @AgentRoute()
  @ApiOperation({ summary: 'Statuses the unfinished ensure_status commands walk to: what the agent\'s --check verifies are reachable in Jira' })
  @ApiOkResponse({ type: QueuedStatusesView })
  async queuedStatuses(@Query() _query: NoQuery): Promise<QueuedStatusesView> {
    const targets = await this.status.queuedStatuses();
    return { statuses: targets.map((t) => t.status), targets };
  }

  @Get('settings')
  @AgentRoute()
  @ApiOkResponse({ type: AgentSettingsView })
  async agentSettings(@Query() _query: NoQuery): Promise<AgentSettingsView> {
    const { version, pacing, link_types, fields } = await this.settings.fresh();
    return { version, pacing, link_types, fields };
  }
}
