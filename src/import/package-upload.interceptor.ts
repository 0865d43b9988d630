/**
 * How `POST /import` takes a package (SPEC 8, 11.1): multipart/form-data with at most one file in each
 * of the fields `notes` and `links`, and 10 MB for the whole request, not per file. Anything else is
 * refused before the import runs, so nothing is imported.
 */
import { HttpException, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { FileFieldsInterceptor, type MulterModuleOptions } from '@nestjs/platform-express';
import type { Request } from 'express';
import { Transform, type Writable } from 'node:stream';
import { defer, type Observable } from 'rxjs';
import { BadRequestError, hasBody, PayloadTooLargeError, shownText, ValidationFailedError } from '../common/index.js';

/** SPEC 11.1: 10 MB for /import, the request as a whole. */
export const MAX_PACKAGE_BYTES = 10 * 1024 * 1024;
export const PACKAGE_FIELDS = ['notes', 'links'] as const;

/** The file fields of a planning package with issues.csv (SPEC 18: POST /packages/plan and /apply). */
export const PLAN_FIELDS = ['issues', 'links', 'notes'] as const;

/** What a refused upload did: /import says nothing was imported; /packages/plan and /apply, that nothing was written. */
export const NOTHING_IMPORTED = 'ничего не импортировано';
export const NOTHING_WRITTEN = 'ничего не записано';

const listed = (fields: readonly string[]) => `${fields.slice(0, -1).join(', ')} и ${fields[fields.length - 1]}`;
// SPEC 11.1 limits the body: the multipart envelope (boundaries, part headers) counts too, so files of
// exactly 10 MB together do not fit, and the text says so.
const tooLarge = (fields: readonly string[], outcome: string) =>
  `тело запроса больше 10 МБ: файлы ${listed(fields)} вместе с разметкой multipart/form-data должны занимать не больше 10 МБ; ${outcome}`;
const notFiles = (fields: readonly string[], outcome: string) =>
  `${listed(fields)} нужно прислать файлами в multipart/form-data (например, curl -F "${fields[0]}=@${fields[0]}.csv"), а не текстовыми полями или JSON; ${outcome}`;
export const TOO_LARGE_DETAIL = tooLarge(PACKAGE_FIELDS, NOTHING_IMPORTED);
export const NOT_FILES_DETAIL = notFiles(PACKAGE_FIELDS, NOTHING_IMPORTED);

/**
 * multer's `streamHandler` (multer ≥ 2.5): feeds the body to busboy through a byte count that fails the
 * upload once the body passes `limit`. multer's own limits are per file or field, never a total, and a
 * chunked body has no Content-Length to check up front.
 */
export function cappedStream(limit: number, detail = TOO_LARGE_DETAIL): (req: Request, busboy: Writable) => void {
  return (req, busboy) => {
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        if (bytes > limit) done(new PayloadTooLargeError(detail));
        else done(null, chunk);
      },
    });
    // busboy fails its open file and reports the error to multer, which drains the rest of the
    // request and rejects the upload with this error (the request unpipes the failed counter).
    counter.on('error', (err) => busboy.destroy(err));
    req.pipe(counter).pipe(busboy);
  };
}

const multerOptions = (fields: readonly string[], outcome: string): MulterModuleOptions & { streamHandler: ReturnType<typeof cappedStream> } => ({
  // A text field may hold a whole CSV (curl -F 'notes=<notes.csv'): it must reach the check below
  // instead of failing on busboy's 1 MB default.
  limits: { fileSize: MAX_PACKAGE_BYTES, fieldSize: MAX_PACKAGE_BYTES },
  streamHandler: cappedStream(MAX_PACKAGE_BYTES, tooLarge(fields, outcome)),
});

/**
 * A multipart body the parser (busboy, under multer) could not read, by its message as Nest raises it:
 * a 400 saying what is wrong with the body instead of a vague «некорректный запрос».
 */
const BROKEN_BODY: Record<string, string> = {
  'Unexpected end of form': 'тело multipart/form-data оборвано или его границы не те, что в Content-Type: завершающей границы нет — пришлите файлы ещё раз целиком',
  'Unexpected end of file': 'тело multipart/form-data оборвано посреди файла — пришлите файлы ещё раз целиком',
  'Malformed part header': 'тело multipart/form-data повреждено: заголовок одной из частей не читается',
  'Boundary not found': 'в заголовке Content-Type нет boundary, без неё тело multipart/form-data не разобрать (curl -F ставит заголовок сам)',
  // multer's (MISSING_FIELD_NAME): a part whose Content-Disposition has no name
  'Field name missing': 'у части тела multipart/form-data нет имени поля (name в Content-Disposition): файл присылают в своём поле, например curl -F "notes=@notes.csv"',
};

/**
 * In words for a person: a body the parser could not read (BROKEN_BODY), or multer's "Unexpected
 * field", which Nest raises as a 400 — a field it was not told about, or a second file in a known one
 * (maxCount is 1). The field comes from the multer error Nest keeps as the cause, else from the
 * message (`Unexpected field - <name>`).
 */
export function uploadError(err: unknown, fields: readonly string[] = PACKAGE_FIELDS, outcome = NOTHING_IMPORTED): ValidationFailedError | BadRequestError | undefined {
  if (!(err instanceof HttpException)) return undefined;
  // busboy's own message is the cause's; Nest's may carry a «Multipart: » prefix.
  const parser = err.cause instanceof Error ? err.cause.message : err.message;
  const broken = BROKEN_BODY[parser] ?? BROKEN_BODY[parser.replace(/^Multipart: /, '')];
  if (broken) return new BadRequestError(`${broken}; ${outcome}`);
  const cause = err.cause as { code?: unknown; field?: unknown } | undefined;
  const match = /^Unexpected (?:file )?field(?: - (.+))?$/.exec(err.message);
  if (cause?.code !== 'LIMIT_UNEXPECTED_FILE' && !match) return undefined;
  const field = typeof cause?.field === 'string' ? cause.field : match?.[1];
  if (field !== undefined && fields.includes(field)) {
    return new ValidationFailedError(`в поле «${field}» можно прислать только один файл`, [{ field, detail: 'больше одного файла' }]);
  }
  const detail = `неизвестное поле файла${field ? ` «${shownText(field)}»` : ''}: допустимы ${listed(fields)}`;
  return new ValidationFailedError(detail, [{ field: field ? shownText(field) : 'files', detail: field ? 'неизвестное поле файла' : detail }]);
}

const REPEATED_FIELD_DETAIL = 'поле формы указано несколько раз: нужно одно значение';

/** How many unknown text fields a refusal names (a form may have hundreds). */
const NAMED_FIELDS = 10;

/**
 * An interceptor taking the given file fields and text fields (`texts`: the route's form DTO checks
 * their values): checks the request's shape and size, runs multer, then refuses the files sent as text
 * fields and any other text field, which would be ignored without a word (a misspelled one included).
 */
export function packageUpload(fields: readonly string[], texts: readonly string[] = [], outcome = NOTHING_IMPORTED): new () => NestInterceptor {
  const Upload = FileFieldsInterceptor(
    fields.map((name) => ({ name, maxCount: 1 })),
    multerOptions(fields, outcome),
  );
  @Injectable()
  class PackageUpload implements NestInterceptor {
    private readonly upload = new Upload();

    async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
      const req = context.switchToHttp().getRequest<Request>();
      // No body at all: a package with no files, the empty report (SPEC 8).
      if (!hasBody(req)) return next.handle();
      // A JSON, urlencoded or text body: the files cannot be in it.
      if (!req.is('multipart/form-data')) throw new ValidationFailedError(notFiles(fields, outcome));
      // busboy reads a body under an empty boundary as one without parts: the files would be lost without a word.
      if (!/;\s*boundary="?[^";\s]/i.test(req.headers['content-type'] ?? '')) throw new BadRequestError(`${BROKEN_BODY['Boundary not found']}; ${outcome}`);
      if (Number(req.headers['content-length']) > MAX_PACKAGE_BYTES) throw new PayloadTooLargeError(tooLarge(fields, outcome));
      try {
        return await this.upload.intercept(context, {
          handle: () =>
            defer(() => {
              const body = req.body as Record<string, unknown> | undefined;
              const asText = fields.filter((f) => body && Object.hasOwn(body, f));
              if (asText.length) throw new ValidationFailedError(notFiles(fields, outcome), asText.map((field) => ({ field, detail: 'текстовое поле вместо файла' })));
              const unknown = Object.keys(body ?? {}).filter((f) => !texts.includes(f));
              if (unknown.length) {
                const allowed = texts.length ? `; текстовые поля: ${texts.join(', ')}` : '; текстовых полей нет';
                const named = unknown.slice(0, NAMED_FIELDS).map((f) => `«${shownText(f)}»`).join(', ');
                const more = unknown.length > NAMED_FIELDS ? ` и ещё ${unknown.length - NAMED_FIELDS}` : '';
                throw new ValidationFailedError(
                  `неизвестное поле ${named}${more}: файлы — ${listed(fields)}${allowed}; ${outcome}`,
                  unknown.slice(0, NAMED_FIELDS).map((field) => ({ field: shownText(field), detail: 'неизвестное поле' })),
                );
              }
              // multer gathers a text field sent twice into a list, which the DTO would call «no string».
              const repeated = texts.filter((f) => Array.isArray(body?.[f]));
              if (repeated.length) {
                throw new ValidationFailedError(
                  `${repeated.join(', ')}: ${REPEATED_FIELD_DETAIL}; ${outcome}`,
                  repeated.map((field) => ({ field, detail: REPEATED_FIELD_DETAIL })),
                );
              }
              return next.handle();
            }),
        });
      } catch (err) {
        throw uploadError(err, fields, outcome) ?? err;
      }
    }
  }
  return PackageUpload;
}

/** POST /import: the fields notes and links. */
export const PackageUploadInterceptor = packageUpload(PACKAGE_FIELDS);
