import { Body, Controller, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiErrors, callerFrom, NoBody, NoQuery, Roles } from '../common/index.js';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CatalogueRefreshService } from './catalogue-refresh.service.js';
import { BatchView } from './rows.js';

/** POST /catalogue/refresh (SPEC 16.1): the catalogue's route that writes the queue, so it lives in Queue. */
@ApiTags('catalogue')
@Controller('catalogue')
export class CatalogueRefreshController {
  constructor(private readonly refreshes: CatalogueRefreshService) {}

  @Post('refresh')
  @HttpCode(201)
  @Roles('client')
  @ApiErrors(401, 403)
  @ApiOperation({
    summary: "Ask the agent to read Jira's configuration again: a batch «Каталог Jira» of one refresh_catalogue, runnable at once (no approval)",
    description: 'While one is still queued or with the agent, its batch is answered (200) and nothing new is queued.',
  })
  @ApiCreatedResponse({ type: BatchView })
  @ApiOkResponse({ type: BatchView, description: 'a refresh_catalogue is already queued or with the agent: its batch' })
  async refresh(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Query() _query: NoQuery, @Body() _body: NoBody): Promise<BatchView> {
    const { view, created } = await this.refreshes.request(callerFrom(req).name);
    if (!created) res.status(200);
    return view;
  }
}
