import { Injectable, PipeTransform } from '@nestjs/common';
import { NotFoundError } from './errors.js';

/** A route id: a positive integer, or else there is no such thing (404). */
@Injectable()
export class IdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    const id = Number(value);
    if (!/^[1-9][0-9]{0,15}$/.test(value) || !Number.isSafeInteger(id)) throw new NotFoundError(`нет объекта с идентификатором «${value}»: идентификатор — целое число от 1`);
    return id;
  }
}
