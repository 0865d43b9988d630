import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { PageQuery } from '../../common/page.dto.js';

export class ListBatchesQuery extends PageQuery {
  @ApiPropertyOptional({ enum: ['queued', 'running', 'done', 'cancelled'] })
  @IsOptional()
  @IsIn(['queued', 'running', 'done', 'cancelled'])
  status?: 'queued' | 'running' | 'done' | 'cancelled';
}

export class CancelCommandDto {
  @ApiPropertyOptional({ description: 'cancel even a command handed out to the agent', default: false })
  @IsOptional()
  @IsBoolean()
  force?: boolean;
}
