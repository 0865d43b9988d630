import { ValidationError, ValidationPipe } from '@nestjs/common';
import { DuplicateSummaryError, FieldError, ValidationFailedError } from './errors.js';

/** class-validator constraint name of the duplicate-summary rule (SPEC 5); its failure is answered as `duplicate_summary`. */
export const DUPLICATE_SUMMARY = 'noDuplicateSummaries';

function flatten(errors: ValidationError[], prefix = ''): (FieldError & { constraint: string })[] {
  const out: (FieldError & { constraint: string })[] = [];
  for (const e of errors) {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    for (const [constraint, detail] of Object.entries(e.constraints ?? {})) out.push({ field, detail, constraint });
    if (e.children?.length) out.push(...flatten(e.children, field));
  }
  return out;
}

/** The spec's error for a failed DTO validation (SPEC 11.1): 422 with a Russian detail and one entry per field. */
export function validationException(errors: ValidationError[]): Error {
  const flat = flatten(errors);
  const duplicate = flat.find((e) => e.constraint === DUPLICATE_SUMMARY);
  const list = flat.map(({ field, detail }) => ({ field, detail }));
  if (duplicate) return new DuplicateSummaryError(duplicate.detail, list);
  const detail = list.length ? list.map((e) => `${e.field}: ${e.detail}`).join('; ') : 'запрос не прошёл проверку';
  return new ValidationFailedError(detail, list);
}

/** The one global ValidationPipe. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    errorHttpStatusCode: 422,
    exceptionFactory: validationException,
    validationError: { target: false, value: false },
  });
}
