import { Column, Entity, PrimaryGeneratedColumn, Unique } from 'typeorm';

@Entity('issue_link')
@Unique(['sourceKey', 'targetKey', 'linkType'])
export class IssueLinkEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column('text', { name: 'source_key' }) sourceKey!: string;
  @Column('text', { name: 'target_key' }) targetKey!: string;
  @Column('text', { name: 'link_type' }) linkType!: string;
}
