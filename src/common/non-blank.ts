import { registerDecorator } from 'class-validator';

/** A string that is not empty after trimming (the rule of non-empty strings in commands, SPEC 4). */
export const isNonBlank = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** class-validator: the value (or, with `each`, every element) is a non-blank string. */
export function IsNonBlank(message = 'нужна непустая строка', each = false) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isNonBlank',
      target: object.constructor,
      propertyName,
      options: { each },
      validator: { validate: isNonBlank, defaultMessage: () => message },
    });
}
