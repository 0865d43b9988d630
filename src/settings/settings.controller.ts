import { Body, Controller, Get, Patch, Query } from '@nestjs/common';
import { ApiErrors, AssistantToo, NoQuery, Roles } from '../common/index.js';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Settings } from './defaults.js';
import { PatchSettingsDto } from './settings.dto.js';
import { SettingsView } from './settings.view.js';
import { SettingsService } from './settings.service.js';

@ApiTags('settings')
@Roles('client')
@ApiErrors(400, 401, 403, 422)
@Controller('settings')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  @AssistantToo()
  @ApiOperation({ summary: 'All settings with their version (SPEC 9)' })
  @ApiOkResponse({ type: SettingsView })
  get(@Query() _query: NoQuery): Promise<Settings> {
    return this.settings.fresh();
  }

  @Patch()
  @ApiOperation({ summary: 'Change settings (client token only; the assistant gets 403): each key given replaces it; pacing and auto_refresh merge per entry; bumps version' })
  @ApiOkResponse({ type: SettingsView })
  patch(@Body() dto: PatchSettingsDto, @Query() _query: NoQuery): Promise<Settings> {
    return this.settings.patch(dto);
  }
}
