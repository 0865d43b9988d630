import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import { checkParams, isCommandType } from '@jira-hub/contracts/catalogue';
import { CreateBatchDto } from './create-batch.dto.js';

/**
 * The DTO as the global pipe drives it (class-transformer, then class-validator with whitelist), on
 * bodies parsed by JSON.parse like express.json does, without the pipe's own check of built-in keys
 * (common/validation.ts): these tests show what the DTO does with the keys it is given. (`constructor`
 * is left out: class-transformer takes an own `constructor` for the value's class and throws, which is
 * why the pipe refuses it among the own keys of params with 422.) The params reach the checks of SPEC
 * 16.2 as sent, which apply the catalogue's rule (`checkParams`) to them; the messages add its problems.
 */
async function check(json: string): Promise<{ dto: CreateBatchDto; messages: string[] }> {
  const dto = plainToInstance(CreateBatchDto, JSON.parse(json) as object);
  const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true });
  const messages: string[] = [];
  const walk = (list: ValidationError[], prefix: string) => {
    for (const e of list) {
      const field = prefix ? `${prefix}.${e.property}` : e.property;
      for (const m of Object.values(e.constraints ?? {})) messages.push(`${field}: ${m}`);
      walk(e.children ?? [], field);
    }
  };
  walk(errors, '');
  dto.commands?.forEach((c, i) => {
    if (!isCommandType(c.type) || typeof c.params !== 'object' || c.params === null) return;
    const problems = checkParams(c.type, c.params).problems;
    if (problems.length) messages.push(`commands.${i}.params: ${problems.map((p) => `${p.param}: ${p.detail}`).join('; ')}`);
  });
  return { dto, messages };
}

const batch = (command: string) => `{"title":"t","commands":[${command}]}`;

describe('CreateBatchDto: params are checked as sent (SPEC 4: unknown params → 422)', () => {
  it.each([
    ['hasOwnProperty', '{"type":"ensure_issue","params":{"temp_key":"new:1","issue_type":"Task","summary":"X","hasOwnProperty":"x"}}'],
    ['hasOwnProperty', '{"type":"ensure_link","params":{"source":"A-1","target":"A-2","link_type":"Blocks","hasOwnProperty":"x"}}'],
    ['isPrototypeOf', '{"type":"refresh","params":{"keys":["A-1"],"isPrototypeOf":"x"}}'],
    ['__lookupGetter__', '{"type":"ensure_sprint","params":{"key":"A-1","sprint":"S","__lookupGetter__":"x"}}'],
    ['valueOf', '{"type":"ensure_sprint","params":{"key":"A-1","sprint":"S","valueOf":1}}'],
    ['toString', '{"type":"ensure_comment","params":{"key":"A-1","body":"b","toString":{}}}'],
    ['prototype', '{"type":"ensure_status","params":{"key":"A-1","path":["Готово"],"prototype":{}}}'],
    ['__proto__', '{"type":"ensure_issue","params":{"temp_key":"new:1","issue_type":"Task","summary":"X","__proto__":{"parent":"A-1"}}}'],
    ['__proto__', '{"type":"refresh","params":{"keys":["A-1"],"__proto__":null}}'],
    ['__proto__', '{"type":"ensure_fields","params":{"key":"A-1","summary":"x","__proto__":"y"}}'],
  ])('%s in %s → unknown param', async (name, command) => {
    const { messages } = await check(batch(command));
    expect(messages).toEqual([`commands.0.params: ${name}: неизвестный параметр`]);
  });

  it('keeps the params object as sent, own keys and all', async () => {
    const { dto } = await check(batch('{"type":"ensure_fields","params":{"key":"A-1","toString":"x","valueOf":"y","__proto__":"z"}}'));
    expect(Object.keys(dto.commands[0]!.params)).toEqual(['key', 'toString', 'valueOf', '__proto__']);
  });

  it('an ensure_fields name like toString is a custom field for settings to allow, not a missing field', async () => {
    const { dto, messages } = await check(batch('{"type":"ensure_fields","params":{"key":"A-1","toString":"x"}}'));
    expect(messages).toEqual([]);
    expect(dto.commands[0]!.params).toEqual({ key: 'A-1', toString: 'x' });
  });

  it('"__proto__" alone in ensure_fields: no field to set, and an unknown param', async () => {
    const { messages } = await check(batch('{"type":"ensure_fields","params":{"key":"A-1","__proto__":{"summary":"x"}}}'));
    expect(messages).toEqual(['commands.0.params: params: нужно хотя бы одно поле для установки; __proto__: неизвестный параметр']);
  });

  it('a "__proto__" object sets no prototype and pollutes nothing', async () => {
    const { dto } = await check(batch('{"type":"ensure_fields","params":{"key":"A-1","summary":"x","__proto__":{"polluted":1}}}'));
    const params = dto.commands[0]!.params;
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
    expect((params as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('valid params pass untouched', async () => {
    const { dto, messages } = await check(batch('{"type":"ensure_link","params":{"source":"A-1","target":"A-2","link_type":"Blocks"}}'));
    expect(messages).toEqual([]);
    expect(dto.commands[0]!.params).toEqual({ source: 'A-1', target: 'A-2', link_type: 'Blocks' });
  });

  it('missing params → "нужен объект"', async () => {
    const { messages } = await check(batch('{"type":"ensure_fields"}'));
    expect(messages).toEqual(['commands.0.params: нужен объект']);
  });
});
