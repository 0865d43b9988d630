import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsNonBlank } from '../common/index.js';

/** The text fields of POST /packages/plan and /apply beside the files. */
export class PackageFormDto {
  /**
   * the package's name (by default «пакет планирования»)
   * @example 'Спринт 2'
   */
  @IsOptional()
  @IsString()
  @IsNonBlank()
  @MaxLength(200) // MAX_PACKAGE_NAME, written out for the OpenAPI metadata
  name?: string;
}
