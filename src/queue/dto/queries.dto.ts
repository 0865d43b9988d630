import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { PageQuery } from '../../common/page.dto.js';
import { BATCH_STATUSES, type BatchStatus } from '../rows.js';

export class ListBatchesQuery extends PageQuery {
  @ApiPropertyOptional({ enum: BATCH_STATUSES })
  @IsOptional()
  @IsIn(BATCH_STATUSES)
  status?: BatchStatus;
}

export class CancelCommandDto {
  @ApiPropertyOptional({ description: 'cancel even a command handed out to the agent', default: false })
  @IsOptional()
  @IsBoolean()
  force?: boolean;
}
