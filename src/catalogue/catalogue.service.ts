import { Injectable } from '@nestjs/common';
import type { Catalogue, CatalogueIssueType, CatalogueTypeConfig } from '@jira-hub/contracts';
import { Clock, NotFoundError, ValidationFailedError } from '../common/index.js';
import { Db } from '../database/index.js';
import { SettingsService } from '../settings/index.js';
import type {
  CatalogueStateView,
  IssueTypeView,
  LinkTypeView,
  SprintView,
  StatusesQuery,
  UsersView,
  WorkflowView,
} from './catalogue.dto.js';
import { catalogueIsStale } from './staleness.js';
import { CatalogueRepository, type StoredCatalogue } from './catalogue.repository.js';
import { listed, lower, match, maybe } from './match.js';
import { initialStatus, shortestRoute } from './routes.js';


/** «5 с», «3 мин», «2 ч», «4 дн». */
/**
 * A status of the type's workflow as a route's end names it, read as the plan's checks read a status: the name
 * itself, else the one status it names in another letter case or with spaces around it. A name that is no status
 * of the type is a 404 listing them: a route «unknown» between names Jira does not have would send an assistant
 * looking for a way that exists under the right name.
 */
function statusNamed(config: CatalogueTypeConfig, type: string, name: string): string {
  // No statuses known for the type (an observed catalogue that met none of its issues): nothing to read the name by.
  if (config.statuses.length === 0) return name;
  const found = match(name, config.statuses, (s) => [s.name]);
  if (found.kind !== 'none') return found.item.name;
  const close = maybe(found.close.map((s) => s.name));
  throw new NotFoundError(`статуса «${name}» нет в процессе типа ${type}; есть: ${listed(config.statuses.map((s) => s.name))}${close ? ` (${close})` : ''}`);
}

const ageText = (s: number) => (s < 60 ? `${s} с` : s < 3600 ? `${Math.floor(s / 60)} мин` : s < 86400 ? `${Math.floor(s / 3600)} ч` : `${Math.floor(s / 86400)} дн`);

/** The catalogue for people and assistants (SPEC 16.1): its state and the lookups that spare anyone a guess. */
@Injectable()
export class CatalogueService {
  constructor(
    private readonly db: Db,
    private readonly repository: CatalogueRepository,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
  ) {}

  /** GET /catalogue: the catalogue with its age; `catalogue: null` while there is none. */
  async state(project?: string): Promise<CatalogueStateView> {
    const c = await this.db.read((m) => this.repository.get(m, project));
    const maxAge = this.settings.get().catalogue_max_age_minutes;
    if (!c) {
      const text = project
        ? `Каталога Jira проекта ${project} в хабе нет.`
        : 'Каталога Jira в хабе ещё нет: агент прочитает его командой refresh_catalogue (её ставит хаб сам, или человек: панель хаба, POST /catalogue/refresh).';
      return { project_key: project ?? null, flavor: null, agent_version: null, synced_at: null, age_seconds: null, stale: false, stale_reason: null, max_age_minutes: maxAge, text, catalogue: null };
    }
    const age = Math.max(0, Math.floor((this.clock.now().getTime() - Date.parse(c.synced_at)) / 1000));
    const stale = catalogueIsStale(c, maxAge, this.clock.now());
    const why = c.stale_reason ? `устарел: ${c.stale_reason}` : stale ? `старше ${maxAge} мин — хаб обновит его, когда очередь освободится` : '';
    const { stale_since: _s, stale_reason: _r, ...catalogue } = c;
    void _s, void _r;
    return {
      project_key: c.project_key,
      flavor: c.flavor,
      agent_version: c.agent_version ?? null,
      synced_at: c.synced_at,
      age_seconds: age,
      stale,
      stale_reason: c.stale_reason,
      max_age_minutes: maxAge,
      text: `Каталог Jira проекта ${c.project_key} прочитан ${ageText(age)} назад${why ? `; ${why}` : ''}.`,
      catalogue: catalogue as unknown as Record<string, unknown>,
    };
  }

  private async need(project?: string): Promise<StoredCatalogue> {
    const c = await this.db.read((m) => this.repository.get(m, project));
    if (!c) throw new NotFoundError(project ? `каталога Jira проекта ${project} в хабе нет` : 'каталога Jira в хабе ещё нет: его запрашивает человек (панель хаба или POST /catalogue/refresh), затем агент его прочитает');
    return c;
  }

  async linkTypes(project?: string): Promise<LinkTypeView[]> {
    const c = await this.need(project);
    const words = Object.entries(this.settings.get().link_types);
    return c.link_types.map((t) => ({
      name: t.name,
      outward: t.outward,
      inward: t.inward,
      words: words.filter(([, jira]) => [t.name, t.outward, t.inward].some((n) => lower(n) === lower(jira))).map(([w]) => w),
      symmetric: lower(t.inward) === lower(t.outward),
    }));
  }

  private typeNamed(c: Catalogue, name: string): CatalogueIssueType {
    const type = c.issue_types.find((t) => t.name === name) ?? c.issue_types.find((t) => lower(t.name) === lower(name.trim()));
    if (!type) throw new NotFoundError(`типа задачи «${name}» в проекте ${c.project_key} нет; есть: ${listed(c.issue_types.map((t) => t.name))}`);
    return type;
  }

  async issueTypes(project?: string, name?: string): Promise<IssueTypeView[]> {
    const c = await this.need(project);
    return (name ? [this.typeNamed(c, name)] : c.issue_types).map((t) => ({
      ...t,
      create_fields: c.per_type[t.id]?.create ?? [],
      edit_fields: c.per_type[t.id]?.edit ?? null,
    }));
  }

  async statuses(q: StatusesQuery): Promise<WorkflowView[]> {
    if ((q.from === undefined) !== (q.to === undefined) || (q.from !== undefined && q.issue_type === undefined)) {
      const detail = 'маршрут ищется по issue_type, from и to вместе';
      throw new ValidationFailedError(detail, [{ field: q.from === undefined ? 'from' : q.to === undefined ? 'to' : 'issue_type', detail }]);
    }
    const c = await this.need(q.project);
    return (q.issue_type ? [this.typeNamed(c, q.issue_type)] : c.issue_types).map((t) => {
      const config = c.per_type[t.id] ?? { create: [], edit: null, statuses: [], transitions: [] };
      const view: WorkflowView = {
        issue_type: t.name,
        statuses: config.statuses.map((s) => s.name),
        initial_status: initialStatus(config),
        transitions: config.transitions.map(({ from, to, name, required_fields }) => ({ from, to, name, required_fields })),
      };
      if (q.from !== undefined && q.to !== undefined) {
        // The ends named as the plan's checks read a status (another letter case, spaces around it): the route in Jira's names.
        const from = statusNamed(config, t.name, q.from);
        view.route_from = from;
        view.route = shortestRoute(config, from, statusNamed(config, t.name, q.to));
      }
      return view;
    });
  }

  async sprints(project?: string, board?: string): Promise<SprintView[]> {
    const c = await this.need(project);
    const boards = board === undefined ? c.boards : c.boards.filter((b) => String(b.id) === board.trim() || lower(b.name) === lower(board.trim()));
    if (board !== undefined && boards.length === 0) throw new NotFoundError(`доски «${board}» в каталоге нет; есть: ${listed(c.boards.map((b) => `${b.name} (${b.id})`))}`);
    const ids = new Set(boards.map((b) => b.id));
    return c.sprints
      .filter((s) => ids.has(s.board_id))
      .map((s) => ({ ...s, board: c.boards.find((b) => b.id === s.board_id)?.name ?? String(s.board_id) }));
  }

  async values(what: 'priorities' | 'components' | 'versions', project?: string): Promise<string[]> {
    return (await this.need(project))[what];
  }

  async users(project: string | undefined, q: string | undefined, limit: number): Promise<UsersView> {
    const c = await this.need(project);
    const wanted = lower(q?.trim() ?? '');
    const matching = c.assignable.filter((u) => !wanted || lower(u.display_name).includes(wanted) || lower(u.id).includes(wanted));
    return { users: matching.slice(0, limit), total: matching.length, truncated: c.assignable_truncated };
  }
}
