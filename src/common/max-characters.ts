import { registerDecorator } from 'class-validator';

/**
 * class-validator: a string of at most `max` characters counted as code points — as the package reader
 * counts a cell (an emoji one, a variation selector one). `@MaxLength` (validator.js) leaves variation
 * selectors out of its count, so the same text passed a route and failed an import; beside `@MaxLength`,
 * which states the limit in the API description, this holds the route to the import's count.
 */
export function MaxCharacters(max: number) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'maxCharacters',
      target: object.constructor,
      propertyName,
      validator: {
        validate: (v: unknown) => typeof v !== 'string' || [...v].length <= max,
        defaultMessage: () => `не длиннее ${max} символов`,
      },
    });
}
