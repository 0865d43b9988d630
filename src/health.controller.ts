import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { HealthView } from './health.view.js';
import { Db } from './database/index.js';
import { Public } from './common/index.js';
import { SettingRepository } from './settings/index.js';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly db: Db,
    private readonly settings: SettingRepository,
  ) {}

  @Get()
  @Public()
  @ApiOkResponse({ type: HealthView })
  async health(): Promise<HealthView> {
    return { status: 'ok', schema_version: await this.db.read((m) => this.settings.schemaVersion(m)) };
  }
}
