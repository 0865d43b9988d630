import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock, type FieldError } from '../common/index.js';
import type { JiraNamedSettings, SettingsCheck } from '../settings/index.js';
import { CatalogueRepository } from './catalogue.repository.js';
import { listed, lower, match, maybe } from './match.js';
import { catalogueIsStale } from './staleness.js';
import { lookupField } from './catalogue-checks.js';

/**
 * SETTINGS_CHECK (settings/settings-check.ts): the link types and fields of a settings change against the
 * catalogue, by the rules of the agent's start-up check (packages/agent/src/preflight.ts): a link type by
 * its name in any letter case; a field by its id or its name in any letter case, a name several fields share
 * refused as the agent refuses it (lookupField). Without a catalogue, or
 * with a stale one (marked, or older than `catalogue_max_age_minutes` as it would be), nothing is refused:
 * the hub cannot tell.
 */
@Injectable()
export class CatalogueSettingsCheck implements SettingsCheck {
  constructor(
    private readonly catalogues: CatalogueRepository,
    private readonly clock: Clock,
  ) {}

  async problems(m: EntityManager, changed: JiraNamedSettings, maxAgeMinutes: number): Promise<FieldError[]> {
    if (changed.link_types === undefined && changed.fields === undefined) return [];
    const catalogue = await this.catalogues.get(m);
    if (!catalogue || catalogueIsStale(catalogue, maxAgeMinutes, this.clock.now())) return [];
    const problems: FieldError[] = [];
    const types = catalogue.link_types;
    for (const [word, name] of Object.entries(changed.link_types ?? {})) {
      if (types.some((t) => lower(t.name.trim()) === lower(name.trim()))) continue;
      const m2 = match(name, types, (t) => [t.name]);
      const hint = maybe(m2.kind === 'none' ? m2.close.map((t) => t.name) : []);
      problems.push({
        field: `link_types.${word}`,
        detail: `типа связи «${name}» в Jira проекта ${catalogue.project_key} нет (есть: ${listed(types.map((t) => t.name))}): с ним агент не запустится${hint ? ` — ${hint}` : ''}`,
      });
    }
    (changed.fields ?? []).forEach((name, i) => {
      const found = lookupField(catalogue, name);
      if (found && 'ambiguous' in found) {
        const ids = found.ambiguous.map((f) => f.id);
        problems.push({ field: `fields.${i}`, detail: `поле «${name}» неоднозначно: в Jira несколько полей с таким названием (${ids.join(', ')}), с ним агент не запустится — укажите id нужного поля: ${ids.join(' или ')}` });
        return;
      }
      if (found) return;
      const m2 = match(name, catalogue.fields, (f) => [f.name]);
      const hint = maybe(m2.kind === 'none' ? m2.close.map((f) => `${f.name} (${f.id})`) : []);
      problems.push({ field: `fields.${i}`, detail: `поля «${name}» в Jira нет: с ним агент не запустится${hint ? ` — ${hint}` : ''}` });
    });
    return problems;
  }
}
