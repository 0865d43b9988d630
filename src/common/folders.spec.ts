import { describe, expect, it } from '@jest/globals';
import { fileSystemReason } from './folders.js';

const failure = (code: string) => Object.assign(new Error(code), { code });

describe('fileSystemReason', () => {
  it('says which right is missing: to read a file one cannot read, to write one cannot write', () => {
    expect(fileSystemReason(failure('EACCES'), 'read')).toBe('нет прав на чтение');
    expect(fileSystemReason(failure('EPERM'), 'read')).toBe('нет прав на чтение');
    expect(fileSystemReason(failure('EACCES'))).toBe('нет прав на запись');
  });

  it('names a path that leads nowhere, and an unknown failure by its code', () => {
    expect(fileSystemReason(failure('ENOENT'), 'read')).toBe('нет такого файла или папки');
    expect(fileSystemReason(failure('EWHAT'))).toBe('сбой файловой системы (EWHAT)');
  });
});
