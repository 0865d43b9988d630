import { describe, expect, it } from '@jest/globals';
import { BadRequestException } from '@nestjs/common';
import { uploadError } from './package-upload.interceptor.js';

describe("uploadError: multer's unexpected file field and a body the parser could not read, in words for a person", () => {
  const multer = (field: string) => Object.assign(new Error('Unexpected field'), { code: 'LIMIT_UNEXPECTED_FILE', field });

  it.each([
    ['an unknown field, from the message', new BadRequestException('Unexpected file field - other'), 'неизвестное поле файла «other»: допустимы notes и links'],
    ['an unknown field, from the cause', new BadRequestException('Unexpected field - x', { cause: multer('x') }), 'неизвестное поле файла «x»: допустимы notes и links'],
    ['a second notes file, from the message', new BadRequestException('Unexpected field - notes'), 'в поле «notes» можно прислать только один файл'],
    ['a second links file, from the cause', new BadRequestException('Unexpected field', { cause: multer('links') }), 'в поле «links» можно прислать только один файл'],
    ['no field named', new BadRequestException('Unexpected field'), 'неизвестное поле файла: допустимы notes и links'],
  ])('%s', (_, err, detail) => {
    const mapped = uploadError(err);
    expect(mapped?.code).toBe('validation_failed');
    expect(mapped?.detail).toBe(detail);
  });

  it.each([
    ['cut short, as Nest words it', new BadRequestException('Multipart: Unexpected end of form', { cause: new Error('Unexpected end of form') }), 'оборвано или его границы не те'],
    ['cut inside a file', new BadRequestException('Unexpected end of file'), 'оборвано посреди файла'],
    ['a part header garbled', new BadRequestException('Malformed part header', { cause: new Error('Malformed part header') }), 'заголовок одной из частей не читается'],
    ['no boundary in Content-Type', new BadRequestException('Multipart: Boundary not found', { cause: new Error('Multipart: Boundary not found') }), 'нет boundary'],
  ])('a body the parser could not read, %s → 400 bad_request saying so', (_, err, words) => {
    const mapped = uploadError(err);
    expect(mapped?.code).toBe('bad_request');
    expect(mapped?.detail).toContain(words);
    expect(mapped?.detail).toMatch(/; ничего не импортировано$/);
  });

  it.each([new BadRequestException('Field name too long'), new Error('Unexpected field'), 'text'])('leaves anything else alone: %p', (err) => {
    expect(uploadError(err)).toBeUndefined();
  });
});
