import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Schema v15 (decision 1419): PostgreSQL's word search folds letters as SQLite's FTS5 index does. Its
 * folding (hub_search_fold, src/database/search-fold.ts) had its own list of Latin diacritics: it dropped
 * what unicode61 keeps (`ø`, `ł`, `đ`, Turkish `ı`), kept what unicode61 drops (Vietnamese `ơ`, `ư` and the
 * letters of U+1E00–U+1EFF, `ǎ`, `ȁ`, …), and left Greek final `ς` apart from `σ`: 350 letters of Latin,
 * Greek and Cyrillic found other issues on one engine than on the other. The migration run has already
 * replaced the function (createSearchFunctions, before the migrations); a stored generated column keeps
 * what it computed, so every issue's `search` is computed again here: an UPDATE computes it anew.
 * SQLite: its index is the reference; only the version rises.
 */
export class SearchFoldParity1765584000000 implements MigrationInterface {
  static readonly schemaVersion = 15;

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.driver.options.type === 'postgres') await q.query('UPDATE issue SET summary = summary');
    await q.manager.createQueryBuilder().update('setting').set({ value: '15' }).where('key = :k', { k: 'schema_version' }).execute();
  }

  /** The function stays as it is (it is replaced at every start): the column keeps the new folding. */
  async down(q: QueryRunner): Promise<void> {
    await q.manager.createQueryBuilder().update('setting').set({ value: '14' }).where('key = :k', { k: 'schema_version' }).execute();
  }
}
