import { Injectable } from '@nestjs/common';
import { CatalogueRepository } from '../catalogue/index.js';
import { ValidationFailedError } from '../common/index.js';
import { Db } from '../database/index.js';
import { MAX_PACKAGE_RECORDS } from '../import/index.js';
import { PackageViewRepository } from '../mirror/index.js';
import { boardOfSprint, parseExportJql, unwritableLabels, unwritableSummaries, writePackage, type ExportedPackage } from './export.js';

/**
 * A file past what plan and apply read (MAX_PACKAGE_RECORDS records, the header one of them) would make a
 * package no one can apply: refused before anything is written.
 */
function tooMany(jql: string, count: number, what: string, file: string): void {
  const most = MAX_PACKAGE_RECORDS - 1;
  if (count <= most) return;
  throw new ValidationFailedError(
    `${what} по JQL «${jql}» в зеркале — ${count}, а в ${file} пакета их может быть не больше ${most} (столько строк без заголовка читают plan и apply): сузьте JQL — по спринту, статусу или key in (…); ничего не записано`,
  );
}

/** `jira-hub export <folder> --jql …` (SPEC 18): the mirror's issues, links and notes as a planning package. */
@Injectable()
export class ExportService {
  constructor(
    private readonly db: Db,
    private readonly mirror: PackageViewRepository,
    private readonly catalogues: CatalogueRepository,
  ) {}

  async export(jql: string): Promise<{ files: ExportedPackage; issues: number; links: number; notes: number; labelsLeftOut: string[]; summariesLeftOut: string[] }> {
    const filter = parseExportJql(jql);
    return this.db.read(async (m) => {
      const issues = await this.mirror.exportIssues(m, filter);
      tooMany(jql, issues.length, 'Задач', 'issues.csv');
      const keys = issues.map((i) => i.key);
      const order = new Map(keys.map((k, i) => [k, i]));
      const at = (k: string) => order.get(k) ?? -1;
      const links = (await this.mirror.linksFrom(m, keys)).sort((a, b) => at(a.source_key) - at(b.source_key) || at(a.target_key) - at(b.target_key) || (a.link_type < b.link_type ? -1 : 1));
      tooMany(jql, links.length, 'Связей', 'links.csv');
      const notes = [...(await this.mirror.notesOf(m, keys)).values()].sort((a, b) => at(a.key) - at(b.key));
      // Sub-task types by the catalogue of the exported issues' project (without one, every sprint is written);
      // its boards and sprints say where a sprint's name needs its board.
      const catalogue = await this.catalogues.get(m, issues[0]?.key.replace(/-\d+$/, ''));
      const subtasks = new Set((catalogue?.issue_types ?? []).filter((t) => t.subtask).map((t) => t.name.toLowerCase()));
      return { files: writePackage(issues, links, notes, subtasks, boardOfSprint(catalogue)), issues: issues.length, links: links.length, notes: notes.length, labelsLeftOut: unwritableLabels(issues), summariesLeftOut: unwritableSummaries(issues) };
    });
  }
}
