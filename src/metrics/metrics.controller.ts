import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ApiErrors, Roles } from '../common/index.js';
import { Meter } from './meter.js';
import { prometheusContentType } from 'prom-client';

@ApiTags('metrics')
@Roles('client')
@ApiErrors(401, 403)
@Controller('metrics')
export class MetricsController {
  constructor(private readonly meter: Meter) {}

  @Get()
  @Header('Content-Type', prometheusContentType)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'Prometheus text format: queue depth, claims, re-deliveries, report latency, backups, HTTP durations' })
  @ApiProduces(prometheusContentType)
  @ApiOkResponse({ description: 'Prometheus exposition format 0.0.4', schema: { type: 'string' } })
  metrics(): Promise<string> {
    return this.meter.scrape();
  }
}
