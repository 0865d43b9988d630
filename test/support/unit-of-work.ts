/**
 * A stand-in for `Db` in service specs whose repositories are mocked: `read` and `transaction` run the
 * service's function at once with one marker EntityManager (the repositories' mocks receive it, and a spec
 * can check that the calls of one operation share it), and a transaction's after-commit callbacks run when
 * the function resolves — never when it throws, as on a rollback. No driver is involved.
 */
import { jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import type { Db } from '../../src/database/db.service.js';

export interface FakeDb {
  db: Db;
  /** the manager every unit of work hands to the service */
  m: EntityManager;
  /** how many transactions were opened, and how many committed */
  transactions: { opened: number; committed: number };
}

export function fakeDb(engine: 'sqlite' | 'postgres' = 'sqlite'): FakeDb {
  const m = { marker: 'unit of work' } as unknown as EntityManager;
  const transactions = { opened: 0, committed: 0 };
  const db = {
    engine,
    onUnitStart: jest.fn(),
    read: async <T>(fn: (m: EntityManager) => Promise<T>): Promise<T> => fn(m),
    transaction: async <T>(fn: (m: EntityManager, tx: { afterCommit(cb: () => void): void }) => Promise<T>): Promise<T> => {
      transactions.opened++;
      const callbacks: (() => void)[] = [];
      const result = await fn(m, { afterCommit: (cb) => callbacks.push(cb) });
      transactions.committed++;
      for (const cb of callbacks) cb();
      return result;
    },
  };
  return { db: db as unknown as Db, m, transactions };
}
