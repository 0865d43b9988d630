import { CommandFailure } from '../command-failure.js';

type Params = Record<string, unknown>;

const invalid = (name: string, expected: string): CommandFailure => new CommandFailure(`неверный параметр «${name}»: ожидается ${expected}`);

export function requireString(params: Params, name: string): string {
  const value = params[name];
  if (typeof value !== 'string' || value.trim() === '') throw invalid(name, 'непустая строка');
  return value;
}

export function optionalString(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(name, 'строка');
  return value;
}

export function requireStringArray(params: Params, name: string): string[] {
  const value = params[name];
  if (!Array.isArray(value) || value.length === 0 || value.some((v) => typeof v !== 'string' || v.trim() === '')) {
    throw invalid(name, 'непустой список строк');
  }
  return value as string[];
}

export function optionalObject(params: Params, name: string): Record<string, unknown> | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid(name, 'объект');
  return value as Record<string, unknown>;
}
