/**
 * Every integer field of every DTO has an upper bound a column holds (decision 0104): `@IsInt()` (or
 * `@IsNumber()`) without `@Max(n)`, n ≤ MAX_INTEGER, let 1e308 through to SQL — a 500 on PostgreSQL,
 * stored as given on SQLite. The DTOs write the bound out as a literal (the OpenAPI metadata takes no
 * constants), so this reads class-validator's metadata of every class the DTO files export.
 */
import { describe, expect, it } from '@jest/globals';
import { getMetadataStorage } from 'class-validator';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MAX_INTEGER } from '../src/common/integers.js';
import { ROOT } from './support/groups.js';

/**
 * Integers that never reach a column, with the reason: a page's `offset` goes to SQL's OFFSET, a bigint
 * on both engines (decision 0025: at most 2^53−1).
 */
const NOT_STORED: Record<string, number> = { 'ListIssuesQuery.offset': Number.MAX_SAFE_INTEGER };

/** The DTO files of src/: `*.dto.ts`. */
function dtoFiles(dir = join(ROOT, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? dtoFiles(join(dir, e.name)) : e.name.endsWith('.dto.ts') ? [join(dir, e.name)] : [],
  );
}

describe('integer fields of the DTOs and the columns', () => {
  it('every @IsInt/@IsNumber field of every DTO has @Max at most MAX_INTEGER (2147483647), but an offset', async () => {
    const files = dtoFiles();
    expect(files.length).toBeGreaterThan(5);
    const checked: string[] = [];
    const unbounded: string[] = [];
    for (const file of files) {
      const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        if (typeof value !== 'function') continue;
        const metadata = getMetadataStorage().getTargetValidationMetadatas(value, '', true, false);
        const numeric = new Set(metadata.filter((m) => m.name === 'isInt' || m.name === 'isNumber').map((m) => m.propertyName));
        for (const property of numeric) {
          const max = metadata.find((m) => m.propertyName === property && m.name === 'max')?.constraints?.[0] as number | undefined;
          const at = `${relative(ROOT, file)} ${name}.${property}`;
          checked.push(at);
          if (max === undefined || max > (NOT_STORED[`${name}.${property}`] ?? MAX_INTEGER)) unbounded.push(`${at}: @Max(${max ?? '—'})`);
        }
      }
    }
    expect(checked).toEqual(expect.arrayContaining([expect.stringContaining('AuditCallDto.batch_id'), expect.stringContaining('ReportDto.jira_calls')]));
    expect(unbounded).toEqual([]);
  });
});
