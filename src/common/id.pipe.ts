import { Injectable, PipeTransform } from '@nestjs/common';
import { NotFoundError } from './errors.js';
import { MAX_INTEGER } from './integers.js';

/**
 * A route id: an integer from 1 to MAX_INTEGER, or else there is no such thing (404): an id above the
 * largest a table can hold is as missing as any other (decision 0104), on both engines.
 */
@Injectable()
export class IdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > MAX_INTEGER) {
      throw new NotFoundError(`нет объекта с идентификатором «${value}»: идентификатор — целое число от 1 до ${MAX_INTEGER}`);
    }
    return Number(value);
  }
}
