import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One top-level setting (SPEC 3, 9): `value` is JSON text. Also holds `schema_version` and `version`. */
@Entity('setting')
export class SettingEntity {
  @PrimaryColumn('text')
  key!: string;

  @Column('text')
  value!: string;
}
