/**
 * A package's identity (the idempotency of apply, SPEC 18): the same content hashes alike whether it
 * arrives with a BOM, without one, or back from the package table; and the keys stored before the hash
 * was taken over the texts keep their meaning.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { filesHash, filesOf, parsePackage, type PackageFiles } from './package-reading.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const ISSUES = Buffer.from('Ключ;Срок\r\nAURORA-1;2026-11-30\r\n');
const LINKS = Buffer.from('Откуда;Тип;Куда\nAURORA-1;блокирует;AURORA-2\n');

/** The hash as it was taken before, over the uploaded bytes themselves. */
function uploadHash(files: PackageFiles): string {
  const h = createHash('sha256');
  for (const name of ['issues', 'links', 'notes'] as const) {
    const data = files[name];
    h.update(`${name}:${data ? data.length : -1}:`);
    if (data) h.update(data);
  }
  return h.digest('hex');
}

const hashOf = (files: PackageFiles) => filesHash(parsePackage(files).texts);

describe('filesHash: a package\'s identity', () => {
  it('files with a BOM hash as the same files without one, and as the package stored from them applied again', () => {
    const plain = hashOf({ issues: ISSUES, links: LINKS });
    const withBom = { issues: Buffer.concat([BOM, ISSUES]), links: Buffer.concat([BOM, LINKS]) };
    expect(hashOf(withBom)).toBe(plain);
    expect(hashOf(filesOf(parsePackage(withBom).texts))).toBe(plain);
  });

  it('files without a BOM, with LF endings and a final newline, hash as their bytes did before: the stored idempotency keys still match', () => {
    const lf = Buffer.from(ISSUES.toString('utf8').replace(/\r\n/g, '\n'));
    for (const files of [{ issues: lf }, { links: LINKS }, { issues: lf, links: LINKS }]) expect(hashOf(files)).toBe(uploadHash(files));
  });

  it('the same lines saved with CRLF or LF endings, with or without a newline after the last one, hash alike (Excel saves CRLF)', () => {
    const lines = ['Ключ;Срок', 'AURORA-1;2026-11-30'];
    const variants = [`${lines.join('\r\n')}\r\n`, `${lines.join('\n')}\n`, lines.join('\n'), `${lines.join('\r\n')}\r\n\r\n`, `${lines.join('\r')}\r`];
    const hashes = new Set(variants.map((v) => hashOf({ issues: Buffer.from(v) })));
    expect(hashes.size).toBe(1);
    expect(hashOf({ issues: Buffer.from(lines.join('\n')) })).not.toBe(hashOf({ issues: Buffer.from(`${lines.join('\n')}\nAURORA-2;2026-12-01\n`) }));
  });

  it('different content, different hash; a file left out is not an empty one', () => {
    expect(hashOf({ issues: ISSUES })).not.toBe(hashOf({ issues: Buffer.from('Ключ;Срок\r\nAURORA-1;2026-12-01\r\n') }));
    expect(hashOf({ issues: ISSUES })).not.toBe(hashOf({ issues: ISSUES, links: Buffer.from('Откуда;Тип;Куда\n') }));
  });
});

describe('filesOf: the stored texts back as files', () => {
  it('reads back as the very texts stored, a text that itself starts with U+FEFF (a file saved with two BOMs) included', () => {
    expect(parsePackage({ issues: Buffer.concat([BOM, BOM, ISSUES]) }).texts.issues).toBe(`\uFEFF${ISSUES.toString('utf8')}`);
    for (const issues of [ISSUES, Buffer.concat([BOM, ISSUES]), Buffer.concat([BOM, BOM, ISSUES])]) {
      const { texts } = parsePackage({ issues, links: LINKS });
      expect(parsePackage(filesOf(texts)).texts).toEqual(texts);
      expect(filesHash(parsePackage(filesOf(texts)).texts)).toBe(filesHash(texts));
    }
  });
});
