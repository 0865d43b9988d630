import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A planning package as applied (SPEC 18): its CSV files and the batch its apply submitted. */
@Entity('package')
@Index('idx_package_batch', ['batchId'])
@Index('idx_package_name', ['name', 'id'])
export class PackageEntity {
  @PrimaryGeneratedColumn('increment', { type: 'integer' })
  id!: number;

  @Column('text')
  name!: string;

  /** JSON text: `{issues?, links?, notes?}`, each the CSV text of that file */
  @Column('text')
  files!: string;

  @Column('text', { name: 'created_at' })
  createdAt!: string;

  /** the batch its apply submitted (queue's table; no foreign key across modules); null when Jira already matched */
  @Column('integer', { name: 'batch_id', nullable: true })
  batchId!: number | null;

  /** the stored package this one applied again (POST /packages/{id}/apply; its temp keys mean that line's issues); null: applied from files */
  @Column('integer', { name: 'applied_from', nullable: true })
  appliedFrom!: number | null;
}
