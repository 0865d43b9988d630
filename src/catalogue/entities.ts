import { CatalogueEntity } from './catalogue.entity.js';

/** The tables the Catalogue module owns (ARCHITECTURE.md, "Table ownership"). */
export const CATALOGUE_ENTITIES = [CatalogueEntity];
