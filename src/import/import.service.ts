import { Injectable } from '@nestjs/common';
import { CatalogueRepository } from '../catalogue/index.js';
import { Clock, isJiraKey } from '../common/index.js';
import { Db } from '../database/index.js';
import { IssueRepository, NoteRepository } from '../mirror/index.js';
import { CommandRepository } from '../queue/index.js';
import { SettingsService } from '../settings/index.js';
import { compare, type ImportReport } from './compare.js';
import { writePackageNotes } from './notes-writer.js';
import { asValidationError, PackageErrors, readLinks, readNotes, type LinkRow, type NoteRow } from './package-reader.js';

export interface PackageFiles {
  notes?: Buffer;
  links?: Buffer;
}

/** Imports a planning package (SPEC 8): notes upserted, expected links compared with the mirror; all or nothing. */
@Injectable()
export class ImportService {
  constructor(
    private readonly db: Db,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly commands: CommandRepository,
    private readonly issues: IssueRepository,
    private readonly notes: NoteRepository,
    private readonly catalogues: CatalogueRepository,
  ) {}

  async import(files: PackageFiles): Promise<ImportReport> {
    // Every bad row of both files in one answer (decision 0132).
    const errors = new PackageErrors();
    const notes: NoteRow[] = (files.notes && errors.step(() => readNotes(files.notes!))) || [];
    const links: LinkRow[] = (files.links && errors.step(() => readLinks(files.links!))) || [];
    errors.throwIfAny(asValidationError);
    const now = this.clock.iso();
    return this.db.transaction(async (m) => {
      // Links resolve temp keys through SPEC 6.3: the newest resolution wins.
      const tempKeys = await this.commands.tempKeyMapping(m);
      await writePackageNotes(m, notes, now, this.commands, this.notes);
      const keys = [...notes.map((n) => n.key), ...links.flatMap((l) => [l.from, l.to])].map((k) => tempKeys.get(k) ?? k);
      const mirror = await this.issues.lookup(m, keys);
      // The catalogue of the project the links name first (as a package's plan takes it), for how a type reads.
      const project = links.flatMap((l) => [l.from, l.to]).find(isJiraKey)?.replace(/-\d+$/, '');
      const catalogue = links.length ? await this.catalogues.get(m, project) : null;
      return compare({
        notes,
        links,
        tempKeys,
        linkTypes: this.settings.get().link_types,
        hasLink: mirror.hasLink,
        hasIssue: (key) => mirror.issue(key) !== undefined,
        catalogue,
      });
    }, 'bulk');
  }
}
