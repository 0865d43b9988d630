import { Injectable } from '@nestjs/common';
import { Clock } from '../common/index.js';
import { Db } from '../database/index.js';
import { EventBus } from '../events/index.js';
import { SettingsService } from '../settings/index.js';
import { BatchRepository } from './batch.repository.js';
import { BatchViews } from './batch-views.js';
import { CatalogueRefreshes } from './catalogue-refreshes.js';
import type { BatchView } from './rows.js';

/** A person's request to read the catalogue again (SPEC 16.1). */
@Injectable()
export class CatalogueRefreshService {
  constructor(
    private readonly db: Db,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    private readonly events: EventBus,
    private readonly refreshes: CatalogueRefreshes,
    private readonly batches: BatchRepository,
    private readonly views: BatchViews,
  ) {}

  request(author: string): Promise<{ view: BatchView; created: boolean }> {
    return this.db.transaction(async (m, tx) => {
      const pending = await this.refreshes.pendingBatch(m);
      const id = pending ?? (await this.refreshes.queue(m, author, this.clock.iso()));
      const view = await this.views.batch(m, (await this.batches.find(m, id))!, this.settings.get().pacing);
      if (pending === null) this.events.afterCommit(tx, [{ kind: 'batch', change: 'created', batch_id: id, view }]);
      return { view, created: pending === null };
    });
  }
}
