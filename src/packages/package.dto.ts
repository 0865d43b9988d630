import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsNonBlank, MaxCharacters } from '../common/index.js';
import { MAX_PACKAGE_NAME } from './packages.service.js';

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
  @MaxCharacters(MAX_PACKAGE_NAME) // counted as the CLI's --name and the MCP tools count it
  name?: string;
}
