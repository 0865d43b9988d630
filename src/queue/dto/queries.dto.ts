import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

export class ListBatchesQuery {
  @ApiPropertyOptional({ enum: ['queued', 'running', 'done', 'cancelled'] })
  @IsOptional()
  @IsIn(['queued', 'running', 'done', 'cancelled'])
  status?: 'queued' | 'running' | 'done' | 'cancelled';

  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: 500 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;

  @ApiPropertyOptional({ description: 'only batches with a smaller id (the next page)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  before_id?: number;
}

export class CancelCommandDto {
  @ApiPropertyOptional({ description: 'cancel even a command handed out to the agent', default: false })
  @IsOptional()
  @IsBoolean()
  force?: boolean;
}
