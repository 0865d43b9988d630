import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsNonBlank, PageQuery } from '../../common/index.js';
import { BATCH_FILTERS, type BatchFilter } from '../rows.js';

export class ListBatchesQuery extends PageQuery {
  @ApiPropertyOptional({ enum: BATCH_FILTERS, description: 'a batch status, or done_with_errors: done with a failed or skipped command (as GET /batches/counts counts them)' })
  @IsOptional()
  @IsIn(BATCH_FILTERS)
  status?: BatchFilter;
}

export class ListCommandsQuery extends PageQuery {
  /** only failed commands are listed for now */
  @ApiProperty({ enum: ['failed'] })
  @IsIn(['failed'], { message: 'допустим только status=failed' })
  status!: 'failed';
}

export class CancelCommandDto {
  /**
   * cancel even a command handed out to the agent
   * @defaultValue false
   */
  @IsOptional()
  @IsBoolean()
  force?: boolean;
}

export class ApproveBatchDto {
  /**
   * who approves; defaults to the caller's identity (`client`, `api` in open mode)
   * @example 'ivanov'
   */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @IsNonBlank()
  by?: string;
}

export class RejectBatchDto {
  /**
   * why the batch is rejected (kept as rejected_reason)
   * @example 'не тот спринт'
   */
  @IsString()
  @MaxLength(1000)
  @IsNonBlank('нужна причина отказа — непустая строка')
  reason!: string;
}

export class RevertQuery {
  /**
   * true: answer the plan (commands and conflicts) and write nothing
   * @defaultValue false
   */
  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'нужно true или false' })
  dry_run?: boolean;
  /**
   * true: make the revert even though some conflicts are `retry_later` (the mirror has not seen the change yet,
   * another batch still changes it), leaving them for good; without it such a revert is refused with 409
   * @defaultValue false
   */
  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'нужно true или false' })
  leave_pending?: boolean;
}
