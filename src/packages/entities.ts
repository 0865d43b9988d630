import { PackageEntity } from './package.entity.js';

/** The tables the packages module owns (SPEC 18). */
export const PACKAGE_ENTITIES = [PackageEntity];
