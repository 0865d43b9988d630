/**
 * The parts of class-validator the hub uses, each from its own file. Its index loads every validator
 * it has, with all of validator.js and libphonenumber-js's metadata: some 320 modules and 8 MB at the
 * hub's start for the 17 decorators the DTOs use (issue 9). The DTOs import class-validator's values
 * from here (types may still come from 'class-validator'); createValidationPipe hands ValidationPipe
 * `validatorPackage` below, so that it does not load the index either. These are class-validator's
 * own functions: its metadata storage is one per process (a global), whichever file registers.
 */
import { getFromContainer } from 'class-validator/cjs/container.js';
import { getMetadataStorage } from 'class-validator/cjs/metadata/MetadataStorage.js';
import { Validator } from 'class-validator/cjs/validation/Validator.js';
import type { ValidatorOptions } from 'class-validator';

export { ArrayMaxSize } from 'class-validator/cjs/decorator/array/ArrayMaxSize.js';
export { ArrayMinSize } from 'class-validator/cjs/decorator/array/ArrayMinSize.js';
export { IsIn } from 'class-validator/cjs/decorator/common/IsIn.js';
export { IsOptional } from 'class-validator/cjs/decorator/common/IsOptional.js';
export { ValidateBy } from 'class-validator/cjs/decorator/common/ValidateBy.js';
export { ValidateIf } from 'class-validator/cjs/decorator/common/ValidateIf.js';
export { ValidateNested } from 'class-validator/cjs/decorator/common/ValidateNested.js';
export { Max } from 'class-validator/cjs/decorator/number/Max.js';
export { Min } from 'class-validator/cjs/decorator/number/Min.js';
export { IsISO8601 } from 'class-validator/cjs/decorator/string/IsISO8601.js';
export { Matches } from 'class-validator/cjs/decorator/string/Matches.js';
export { MaxLength } from 'class-validator/cjs/decorator/string/MaxLength.js';
export { IsArray } from 'class-validator/cjs/decorator/typechecker/IsArray.js';
export { IsBoolean } from 'class-validator/cjs/decorator/typechecker/IsBoolean.js';
export { IsInt } from 'class-validator/cjs/decorator/typechecker/IsInt.js';
export { IsObject } from 'class-validator/cjs/decorator/typechecker/IsObject.js';
export { IsString } from 'class-validator/cjs/decorator/typechecker/IsString.js';
export { registerDecorator } from 'class-validator/cjs/register-decorator.js';

/** What ValidationPipe uses of class-validator (its `validatorPackage` option): `validate` as the index defines it, and the metadata. */
export const validatorPackage = {
  validate: (object: unknown, options?: ValidatorOptions) => getFromContainer(Validator).validate(object as object, options),
  getMetadataStorage,
};
