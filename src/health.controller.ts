import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { HealthView } from './health.view.js';
import { Db } from './database/db.service.js';
import { Public } from './common/auth.guard.js';
import { readSchemaVersion } from './settings/schema-version.store.js';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly db: Db) {}

  @Get()
  @Public()
  @ApiOkResponse({ type: HealthView })
  async health(): Promise<HealthView> {
    return { status: 'ok', schema_version: await this.db.read(readSchemaVersion) };
  }
}
