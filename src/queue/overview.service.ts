import { Injectable } from '@nestjs/common';
import { Db } from '../database/db.service.js';
import { batchStatusCounts, failedCommands } from './overview.store.js';
import type { BatchStatusCountsView, FailedCommandView } from './overview.view.js';

/** Reads for the Queue page's tabs: counts per state, and the failed commands across batches. */
@Injectable()
export class OverviewService {
  constructor(private readonly db: Db) {}

  counts(): Promise<BatchStatusCountsView> {
    return this.db.read((m) => batchStatusCounts(m));
  }

  failed(limit: number, beforeId?: number): Promise<FailedCommandView[]> {
    return this.db.read((m) => failedCommands(m, limit, beforeId));
  }
}
