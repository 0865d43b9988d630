import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { BatchEntity } from './batch.entity.js';

/** An `Idempotency-Key` of POST /batches (SPEC 15.4): the batch it made and a hash of the body it came with. */
@Entity('idempotency_key')
@Index('idx_idempotency_created', ['createdAt'])
export class IdempotencyKeyEntity {
  @PrimaryColumn('text')
  key!: string;

  @Column('text', { name: 'body_hash' })
  bodyHash!: string;

  @Column('integer', { name: 'batch_id' })
  batchId!: number;

  @ManyToOne(() => BatchEntity, { nullable: false })
  @JoinColumn({ name: 'batch_id' })
  batch?: BatchEntity;

  @Column('text', { name: 'created_at' })
  createdAt!: string;
}
