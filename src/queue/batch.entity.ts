import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('batch')
export class BatchEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column('text')
  title!: string;

  @Column('text')
  author!: string;

  @Column('text', { name: 'created_at' })
  createdAt!: string;

  @Column('text', { name: 'cancelled_at', nullable: true })
  cancelledAt!: string | null;
}
