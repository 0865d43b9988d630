import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An `Idempotency-Key` of POST /batches (SPEC 15.4): the batch it made and a hash of the body it came with. */
@Entity('idempotency_key')
export class IdempotencyKeyEntity {
  @PrimaryColumn('text')
  key!: string;

  @Column('text', { name: 'body_hash' })
  bodyHash!: string;

  @Column('integer', { name: 'batch_id' })
  batchId!: number;

  @Column('text', { name: 'created_at' })
  createdAt!: string;
}
