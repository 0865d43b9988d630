/** The catalogue module's public surface: what other modules import of it. */
export { parseCatalogueResult } from './catalogue-result.js';
export { keepObserved, learnSeenTransitions } from './observed-transitions.js';
export { CatalogueModule } from './catalogue.module.js';
export { CatalogueRepository } from './catalogue.repository.js';
export { CatalogueSettingsCheck } from './settings-check.js';
export { catalogueIsStale } from './staleness.js';
export type { StoredCatalogue } from './catalogue.repository.js';
export { CATALOGUE_CODES, SYNTAX_CODES, checkCommands, withCatalogue } from './checks.js';
export type { CheckContext, CheckOutcome, CommandRules, PlannedInput } from './checks.js';
export { LABEL_MAX, SUMMARY_MAX, TEXT_MAX, checkContent } from './content-checks.js';
export type { CommandCheck } from './content-checks.js';
export { catalogueBoardIds, checkLink, isOpenSprint, isSymmetricLinkType, linkAsSubmitted, sprintsOnBoard } from './workflow-checks.js';
