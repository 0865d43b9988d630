import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiErrors, Roles } from '../common/index.js';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuditCallDto, AuditQueryDto, AuditView } from './audit.dto.js';
import { AuditService } from './audit.service.js';

@ApiTags('audit')
@ApiErrors(400, 401, 403, 422)
@Controller('audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiOperation({ summary: "The AI assistant's calls (MCP tools and REST with the assistant role), newest first; filter by batch" })
  @ApiOkResponse({ type: [AuditView] })
  list(@Query() q: AuditQueryDto): Promise<AuditView[]> {
    return this.audit.list({ limit: q.limit ?? 50, before_id: q.before_id, batch_id: q.batch_id });
  }

  @Post()
  @HttpCode(204)
  @Roles('assistant')
  @ApiOperation({ summary: 'The MCP server records one tool call it answered (both transports)' })
  async record(@Body() dto: AuditCallDto): Promise<void> {
    await this.audit.record({ channel: 'mcp', tool: dto.tool, route: null, arguments: dto.arguments, outcome: dto.outcome, status: null, detail: dto.detail ?? null, batch_id: dto.batch_id ?? null });
  }
}
