import { describe, expect, it } from '@jest/globals';
import { plainToInstance } from 'class-transformer';
import { IsString, MaxLength, validateSync } from 'class-validator';
import type { ValidationFailedError } from './errors.js';
import { MaxCharacters } from './max-characters.js';
import { validationException } from './validation.js';

/** A field bounded as the hub's DTOs bound text: @MaxLength for the API description, @MaxCharacters for the count. */
class NoteLike {
  @IsString()
  @MaxLength(5)
  @MaxCharacters(5)
  fact_status!: string;
}

describe('validationException', () => {
  it('says each problem of a field once, even when two constraints find it (a text over its limit by both counts)', () => {
    const err = validationException(validateSync(plainToInstance(NoteLike, { fact_status: 'a'.repeat(6) }))) as ValidationFailedError;
    expect(err.message).toBe('fact_status: не длиннее 5 символов');
    expect(err.errors).toEqual([{ field: 'fact_status', detail: 'не длиннее 5 символов' }]);
  });
});
