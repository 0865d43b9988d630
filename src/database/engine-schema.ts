import { DataSource } from 'typeorm';
import { forEngine } from '../common/index.js';
import { engineOf } from './engine.js';

/**
 * A DataSource whose entity metadata is the schema of its own engine: the per-engine markers of the
 * entities (common/entity-columns.ts) applied as it builds its metadata. Every data source of the hub is one.
 */
export class HubDataSource extends DataSource {
  protected override async buildMetadatas(): Promise<void> {
    await super.buildMetadatas();
    const engine = engineOf(this);
    for (const metadata of this.entityMetadatas) forEngine(metadata, engine);
  }
}
