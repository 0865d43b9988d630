/** The answer of GET /health. */
export class HealthView {
  /** @example 'ok' */
  status!: string;
  /** @example 2 */
  schema_version!: number;
}
