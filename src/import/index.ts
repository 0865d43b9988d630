/** The import module's public surface: what other modules import of it. */
export { translateType } from './compare.js';
export type { ImportReport } from './compare.js';
export { ImportModule } from './import.module.js';
export { ImportService } from './import.service.js';
export { writePackageNotes } from './notes-writer.js';
export { MAX_PACKAGE_RECORDS, PackageError, PackageErrors, PackageValidationError, asValidationError, decodePackageFile, readLinks, readNotes, readTable, spreadsheetCell } from './package-reader.js';
export type { LinkRow, NoteRow, PackageFile } from './package-reader.js';
export { NOTHING_WRITTEN, PLAN_FIELDS, packageUpload } from './package-upload.interceptor.js';
export { formatReport } from './report-text.js';
