/** The answer of POST /batches/plan (SPEC 15.4). */
import { ApiProperty } from '../common/openapi.js';
import { BATCH_SOURCES, type BatchSource } from '../common/auth.guard.js';
import { COMMAND_TYPES, type CommandType, type Params } from './commands/catalogue.js';
import { VERDICTS, type Verdict } from './commands/verdict.js';

export class ChangeView {
  @ApiProperty({ example: 'status' }) field!: string;
  @ApiProperty({ nullable: true, example: 'To Do', description: "the mirror's value" }) from!: unknown;
  @ApiProperty({ nullable: true, example: 'Done', description: "the command's value" }) to!: unknown;
}

export class PlannedCommandView {
  @ApiProperty({ description: 'its seq if the batch were submitted now' }) seq!: number;
  @ApiProperty({ enum: COMMAND_TYPES }) type!: CommandType;
  @ApiProperty({ type: 'object', additionalProperties: true }) params!: Params;
  @ApiProperty({ description: 'the refresh the hub appends to every batch with writes' }) tail_refresh!: boolean;
  @ApiProperty({
    enum: VERDICTS,
    description:
      'holds: the mirror already shows the result (a refresh would confirm it); would_change: see changes; ' +
      'unknown_key: the mirror lacks a key (run a refresh); cannot_judge: see why',
  })
  verdict!: Verdict;
  @ApiProperty({ type: [ChangeView] }) changes!: ChangeView[];
  @ApiProperty({ type: [String] }) unknown_keys!: string[];
  @ApiProperty({ nullable: true, type: String }) why!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'oldest synced_at of the mirror issues behind the verdict' }) synced_at!: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'how old that mirror data is, in seconds' }) age_seconds!: number | null;
  @ApiProperty({ example: 'Уже выполнено (данные зеркала 5 мин назад): агенту менять нечего.' }) text!: string;
}

export class PlanCountsView {
  @ApiProperty() holds!: number;
  @ApiProperty() would_change!: number;
  @ApiProperty() unknown_key!: number;
  @ApiProperty() cannot_judge!: number;
}

export class PlanView {
  @ApiProperty() title!: string;
  @ApiProperty({ enum: BATCH_SOURCES }) source!: BatchSource;
  @ApiProperty({ description: "submitted now, the batch would wait for a person's approval (setting approval)" }) awaiting_approval!: boolean;
  @ApiProperty({ description: 'sum of the pacing pauses of its commands, tail refresh included' }) estimate_seconds!: number;
  @ApiProperty({ description: 'its own pauses plus those of every unfinished runnable command ahead (as if approved now)' }) remaining_seconds!: number;
  @ApiProperty({ description: 'every command of the body (the tail refresh aside) already holds' }) all_hold!: boolean;
  @ApiProperty({ type: PlanCountsView, description: 'verdicts of the commands of the body (the tail refresh aside)' }) counts!: PlanCountsView;
  @ApiProperty({ example: 'Из 2 команд уже выполнено 2: отправлять пакет не нужно.' }) text!: string;
  @ApiProperty({ type: [PlannedCommandView] }) commands!: PlannedCommandView[];
}
