/** The packages module's public surface: what other modules import of it. */
export { parseExportJql } from './export.js';
export { ExportService } from './export.service.js';
export type { PackageFiles } from './package-reading.js';
export { appliedPlanText, applyText, driftText, keyList, overCapText, planText } from './package-text.js';
export type { ApplyView, DriftView, PackagePlanView } from './package.view.js';
export { PackagesModule } from './packages.module.js';
export { MAX_PACKAGE_NAME, PackagesService } from './packages.service.js';
