/**
 * The OpenAPI decorators of @nestjs/swagger, applied when the document is first asked for (/docs),
 * not when the hub starts. @nestjs/swagger loads its whole module graph with any decorator (some
 * 530 modules with es-toolkit/compat): about a third of the hub's start time and 20 MB of its memory,
 * for a page a person opens now and then (issue 9). The DTOs and controllers import the decorators
 * from here; each use is recorded with its target and applied, in the order the classes were
 * decorated, by `applyOpenApiDecorators` before the document is built (src/docs.ts). The metadata
 * written is the same as if they had run at once: they read only the design types TypeScript emits
 * and the metadata of the decorators applied before them.
 */
import type * as Swagger from '@nestjs/swagger';

type Names =
  | 'ApiBearerAuth'
  | 'ApiBody'
  | 'ApiConsumes'
  | 'ApiCreatedResponse'
  | 'ApiExcludeEndpoint'
  | 'ApiHeader'
  | 'ApiOkResponse'
  | 'ApiOperation'
  | 'ApiProduces'
  | 'ApiProperty'
  | 'ApiPropertyOptional'
  | 'ApiResponse'
  | 'ApiTags';

type Use = { name: Names; args: unknown[]; target: object; key?: string | symbol; descriptor?: PropertyDescriptor };
type AnyDecorator = (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => unknown;

const pending: Use[] = [];
/** Set once the decorators have been applied: a class decorated later (a module imported late) gets them at once. */
let swagger: typeof Swagger | undefined;

function apply(module: typeof Swagger, use: Use): void {
  const factory = module[use.name] as (...args: unknown[]) => AnyDecorator;
  factory(...use.args)(use.target, use.key, use.descriptor);
}

function deferred<N extends Names>(name: N): (typeof Swagger)[N] {
  const factory =
    (...args: unknown[]) =>
    (target: object, key?: string | symbol, descriptor?: PropertyDescriptor): void => {
      const use = { name, args, target, key, descriptor };
      if (swagger) apply(swagger, use);
      else pending.push(use);
    };
  return factory as unknown as (typeof Swagger)[N];
}

/** Applies every recorded decorator with the loaded @nestjs/swagger (once; later calls do nothing). */
export function applyOpenApiDecorators(module: typeof Swagger): void {
  swagger = module;
  for (const use of pending.splice(0)) apply(module, use);
}

export const ApiBearerAuth = deferred('ApiBearerAuth');
export const ApiBody = deferred('ApiBody');
export const ApiConsumes = deferred('ApiConsumes');
export const ApiCreatedResponse = deferred('ApiCreatedResponse');
export const ApiExcludeEndpoint = deferred('ApiExcludeEndpoint');
export const ApiHeader = deferred('ApiHeader');
export const ApiOkResponse = deferred('ApiOkResponse');
export const ApiOperation = deferred('ApiOperation');
export const ApiProduces = deferred('ApiProduces');
export const ApiProperty = deferred('ApiProperty');
export const ApiPropertyOptional = deferred('ApiPropertyOptional');
export const ApiResponse = deferred('ApiResponse');
export const ApiTags = deferred('ApiTags');
