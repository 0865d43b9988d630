import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from './common/openapi.js';
import { Db } from './database/db.service.js';
import { Public } from './common/auth.guard.js';
import { readSchemaVersion } from './settings/schema-version.store.js';

class HealthView {
  @ApiProperty({ example: 'ok' }) status!: string;
  @ApiProperty({ example: 2 }) schema_version!: number;
}

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
