import { Controller, Get, Query } from '@nestjs/common';
import { ApiErrors, AssistantToo } from '../common/index.js';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CatalogueQuery,
  CatalogueStateView,
  IssueTypesQuery,
  IssueTypeView,
  LinkTypeView,
  SprintsQuery,
  SprintView,
  StatusesQuery,
  UsersQuery,
  UsersView,
  WorkflowView,
} from './catalogue.dto.js';
import { CatalogueService } from './catalogue.service.js';

/** The catalogue of Jira's configuration and the lookups served from it (SPEC 16.1; 404 while there is none). */
@ApiTags('catalogue')
@AssistantToo()
@ApiErrors(401, 403, 404, 422)
@Controller('catalogue')
export class CatalogueController {
  constructor(private readonly catalogue: CatalogueService) {}

  @Get()
  @ApiOperation({ summary: "The catalogue of the project's configuration the agent last reported, with its age (catalogue null while there is none)" })
  @ApiOkResponse({ type: CatalogueStateView })
  state(@Query() q: CatalogueQuery): Promise<CatalogueStateView> {
    return this.catalogue.state(q.project);
  }

  @Get('link-types')
  @ApiOperation({ summary: 'Link types: name, outward and inward words, and the settings link_types words that name each (ensure_link takes any of them)' })
  @ApiOkResponse({ type: [LinkTypeView] })
  linkTypes(@Query() q: CatalogueQuery): Promise<LinkTypeView[]> {
    return this.catalogue.linkTypes(q.project);
  }

  @Get('issue-types')
  @ApiOperation({ summary: 'Issue types with the fields of their create and edit screens (required, allowed values)' })
  @ApiOkResponse({ type: [IssueTypeView] })
  issueTypes(@Query() q: IssueTypesQuery): Promise<IssueTypeView[]> {
    return this.catalogue.issueTypes(q.project, q.name);
  }

  @Get('statuses')
  @ApiOperation({ summary: 'Statuses and known transitions per issue type; with issue_type, from and to: the shortest known route' })
  @ApiOkResponse({ type: [WorkflowView] })
  statuses(@Query() q: StatusesQuery): Promise<WorkflowView[]> {
    return this.catalogue.statuses(q);
  }

  @Get('sprints')
  @ApiOperation({ summary: 'Active and future sprints with their boards (ensure_sprint takes the name, and board when names repeat)' })
  @ApiOkResponse({ type: [SprintView] })
  sprints(@Query() q: SprintsQuery): Promise<SprintView[]> {
    return this.catalogue.sprints(q.project, q.board);
  }

  @Get('priorities')
  @ApiOperation({ summary: "The priorities of the project's scheme" })
  @ApiOkResponse({ type: [String] })
  priorities(@Query() q: CatalogueQuery): Promise<string[]> {
    return this.catalogue.values('priorities', q.project);
  }

  @Get('components')
  @ApiOperation({ summary: "The project's components" })
  @ApiOkResponse({ type: [String] })
  components(@Query() q: CatalogueQuery): Promise<string[]> {
    return this.catalogue.values('components', q.project);
  }

  @Get('versions')
  @ApiOperation({ summary: "The project's versions" })
  @ApiOkResponse({ type: [String] })
  versions(@Query() q: CatalogueQuery): Promise<string[]> {
    return this.catalogue.values('versions', q.project);
  }

  @Get('users')
  @ApiOperation({ summary: 'People issues of the project may be assigned to, by part of the name (at most 1,000 read; `truncated` says when cut)' })
  @ApiOkResponse({ type: UsersView })
  users(@Query() q: UsersQuery): Promise<UsersView> {
    return this.catalogue.users(q.project, q.q, q.limit ?? 20);
  }
}
