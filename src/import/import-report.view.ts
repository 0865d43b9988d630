/** The answer of POST /import (SPEC 8), for the OpenAPI document. */
import type { ExpectedLink, ImportReport } from '@jira-hub/contracts';

export class ExpectedLinkView implements ExpectedLink {
  /** @example 'AURORA-1533' */
  source!: string;
  /** @example 'AURORA-1586' */
  target!: string;
  /** @example 'Relates' */
  link_type!: string;
}

export class ImportReportView implements ImportReport {
  /** notes rows imported */
  notes!: number;
  expected_links!: ExpectedLinkView[];
  /** Jira keys named by the package that the mirror lacks */
  missing_keys!: string[];
  missing_links!: ExpectedLinkView[];
  /** expected links that Jira holds the other way round */
  reversed_links!: ExpectedLinkView[];
  /** links.csv rows left out of the comparison (an end empty, or a temp key not yet resolved) */
  skipped_links?: SkippedLinkView[];
}

export class SkippedLinkView {
  row!: number;
  from!: string;
  to!: string;
  /** @example 'пусто в «Куда»' */
  reason!: string;
}
