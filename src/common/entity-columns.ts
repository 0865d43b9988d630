import type { ColumnType, EntityMetadata } from 'typeorm';

/** The engines (database/engine.ts has the same union). */
type Engine = 'sqlite' | 'postgres';

/**
 * A JSON column as read back: JSON text on SQLite (and in TEXT columns on PostgreSQL), the parsed value
 * where PostgreSQL stores `json` (`command.params`, `command.result`: the pg driver parses json, keeping
 * the order of the text's keys).
 * Writes always pass JSON text; both engines store it as their column's type.
 */
export type StoredJson = string | { readonly [key: string]: unknown } | readonly unknown[];

/**
 * Declarations that hold on one engine only. TypeORM's decorators are global and per class, while the
 * engine is per data source, and both engines share the entity classes (a repository names one class
 * whichever engine runs). So an entity declares with TypeORM's own decorators what either engine's
 * schema has, and marks here what differs:
 * - `@PostgresType('json')`: the column's type on PostgreSQL where its @Column states SQLite's;
 * - `@PostgresCollation('C')`: the column's collation on PostgreSQL (SQLite compares text bytewise, BINARY);
 * - `@Only('postgres')` on a column, `onlyIndex('sqlite', name)` for an index: what one engine's
 *   schema has and the other's has not (PostgreSQL's generated tsvector column and its GIN index,
 *   SQLite's FTS5 row id index).
 * database/engine-schema.ts's HubDataSource applies them (forEngine) when it builds its metadata, before
 * anything reads it (the schema diff of test/schema.e2e-spec.ts, the query builder). Entity files import
 * this file, so it lives in common/ (they import nothing else of the hub).
 */
const postgresTypes = new Map<Function, Map<string, ColumnType>>();
const postgresCollations = new Map<Function, Map<string, string>>();
const onlyColumns = new Map<Function, Map<string, Engine>>();
/** An index's access method on PostgreSQL (btree, gin, gist, …). */
type TableIndexTypes = NonNullable<EntityMetadata['indices'][number]['type']>;

const onlyIndices = new Map<string, Engine>();
const postgresIndexTypes = new Map<string, TableIndexTypes>();

const entry = <V>(map: Map<Function, Map<string, V>>, target: Function): Map<string, V> => {
  let found = map.get(target);
  if (!found) map.set(target, (found = new Map()));
  return found;
};

/** The column's type on PostgreSQL; its @Column gives SQLite's. */
export function PostgresType(type: ColumnType): PropertyDecorator {
  return (target, property) => void entry(postgresTypes, target.constructor).set(String(property), type);
}

/** The column's collation on PostgreSQL; on SQLite it has none but BINARY. */
export function PostgresCollation(collation: string): PropertyDecorator {
  return (target, property) => void entry(postgresCollations, target.constructor).set(String(property), collation);
}

/** A column only `engine`'s schema has. */
export function Only(engine: Engine): PropertyDecorator {
  return (target, property) => void entry(onlyColumns, target.constructor).set(String(property), engine);
}

/**
 * The index of this name (declared with @Index) exists on `engine` only, on PostgreSQL with its access
 * method `type` (gin, …: SQLite's metadata refuses any); answers the name for @Index.
 */
export function onlyIndex(engine: Engine, name: string, type?: TableIndexTypes): string {
  onlyIndices.set(name, engine);
  if (type) postgresIndexTypes.set(name, type);
  return name;
}

/** An entity's metadata as `engine`'s schema has it. */
export function forEngine(metadata: EntityMetadata, engine: Engine): void {
  const types = postgresTypes.get(metadata.target as Function);
  if (engine === 'postgres' && types) for (const column of metadata.columns) column.type = types.get(column.propertyName) ?? column.type;
  const collations = postgresCollations.get(metadata.target as Function);
  if (engine === 'postgres' && collations) for (const column of metadata.columns) column.collation = collations.get(column.propertyName) ?? column.collation;
  const only = onlyColumns.get(metadata.target as Function);
  const kept = <T extends { propertyName: string }>(columns: T[]) => columns.filter((c) => (only?.get(c.propertyName) ?? engine) === engine);
  metadata.columns = kept(metadata.columns);
  metadata.ownColumns = kept(metadata.ownColumns);
  metadata.nonVirtualColumns = kept(metadata.nonVirtualColumns);
  metadata.generatedColumns = kept(metadata.generatedColumns);
  const keptIndex = (i: { name: string }) => (onlyIndices.get(i.name) ?? engine) === engine;
  metadata.indices = metadata.indices.filter(keptIndex);
  metadata.ownIndices = metadata.ownIndices.filter(keptIndex);
  if (engine === 'postgres') for (const index of metadata.indices) index.type = postgresIndexTypes.get(index.name) ?? index.type;
  metadata.propertiesMap = metadata.createPropertiesMap();
}

