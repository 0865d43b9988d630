import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiErrors, NoQuery, Roles } from '../common/index.js';
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
  @ApiOperation({ summary: 'The stdio MCP server (jira-hub mcp) reports one tool call it answered: recorded as channel mcp_stdio (reported, not seen by the hub)' })
  async record(@Body() dto: AuditCallDto, @Query() _query: NoQuery): Promise<void> {
    await this.audit.recordToolCall(dto, 'mcp_stdio');
  }
}
