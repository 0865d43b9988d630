import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { IsNonBlank, PageQuery } from '../../common/index.js';
import { PENDING_TOKEN } from '../commands/revert.js';
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
   * Make the revert even though some conflicts are `retry_later` (the mirror has not seen the change yet, another
   * batch still changes it), leaving them for good: the `pending_token` of the dry run the person saw — refused with
   * 409 when the list has changed since (decision 1491) — or `true`, whatever is pending at that moment (scripts);
   * `false` or absent: such a revert is refused with 409
   * @example '3f9a0c1be47d2a65'
   */
  @ApiPropertyOptional({ type: String, pattern: `${PENDING_TOKEN.source}|^(true|false)$` })
  @IsOptional()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @ValidateIf((_, value) => typeof value !== 'boolean')
  @Matches(PENDING_TOKEN, { message: 'нужно true, false или pending_token пробного отката' })
  leave_pending?: boolean | string;
}
