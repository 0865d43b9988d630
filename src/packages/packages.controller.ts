import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, UploadedFiles, UseInterceptors } from '@nestjs/common';
import type { Request } from 'express';
import { ApiErrors, AssistantToo, BulkTurnInterceptor, callerFrom, IdPipe, NoBody, NoQuery, PageQuery, sourceOf } from '../common/index.js';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { NOTHING_WRITTEN, packageUpload, PLAN_FIELDS } from '../import/index.js';
import { PackageFormDto } from './package.dto.js';
import { ApplyView, DriftView, PackagePlanView, PackageView } from './package.view.js';
import type { PackageFiles } from './package-reading.js';
import { PackagesService } from './packages.service.js';

type Uploaded = Partial<Record<(typeof PLAN_FIELDS)[number], { buffer: Buffer }[]>>;

const filesOf = (u: Uploaded = {}): PackageFiles => ({ issues: u.issues?.[0]?.buffer, links: u.links?.[0]?.buffer, notes: u.notes?.[0]?.buffer });

const PackageUpload = packageUpload(PLAN_FIELDS, ['name'], NOTHING_WRITTEN);

const PACKAGE_BODY = {
  schema: {
    type: 'object',
    properties: {
      issues: { type: 'string', format: 'binary', description: 'issues.csv' },
      links: { type: 'string', format: 'binary', description: 'links.csv' },
      notes: { type: 'string', format: 'binary', description: 'notes.csv' },
      name: { type: 'string', description: 'the package name (default «пакет планирования»)' },
    },
  },
};

@ApiTags('packages')
@AssistantToo()
@ApiErrors(401, 403, 413, 422)
@Controller('packages')
export class PackagesController {
  constructor(private readonly packages: PackagesService) {}

  @Post('plan')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Plan a planning package (issues.csv, links.csv, notes.csv): only what differs from the mirror, with the dry run of SPEC 15.4/16.2; writes nothing',
    description: 'multipart/form-data with at most one file in each of the fields issues, links and notes; 10 MB for the whole request.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(PACKAGE_BODY)
  @ApiOkResponse({ type: PackagePlanView })
  @UseInterceptors(BulkTurnInterceptor, PackageUpload)
  plan(@UploadedFiles() files: Uploaded, @Body() form: PackageFormDto, @Req() req: Request, @Query() _query: NoQuery): Promise<PackagePlanView> {
    return this.packages.plan(filesOf(files), sourceOf(req), form?.name?.trim());
  }

  @Post('apply')
  @HttpCode(200)
  @ApiOperation({
    summary: "Store the package and submit its plan's batch under the caller's source (an assistant's waits for approval)",
    description: 'The same files applied again while their batch still runs answer that batch (`replayed: true`). A package Jira already matches is stored with no batch.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(PACKAGE_BODY)
  @ApiOkResponse({ type: ApplyView })
  @UseInterceptors(BulkTurnInterceptor, PackageUpload)
  apply(@UploadedFiles() files: Uploaded, @Body() form: PackageFormDto, @Req() req: Request, @Query() _query: NoQuery): Promise<ApplyView> {
    return this.packages.apply(filesOf(files), callerFrom(req), form?.name?.trim());
  }

  @Get()
  @ApiOperation({ summary: 'Applied planning packages, newest first' })
  @ApiOkResponse({ type: [PackageView] })
  list(@Query() q: PageQuery): Promise<PackageView[]> {
    return this.packages.list(q.limit ?? 50, q.before_id);
  }

  @Get(':id')
  @ApiOkResponse({ type: PackageView })
  get(@Param('id', IdPipe) id: number, @Query() _query: NoQuery): Promise<PackageView> {
    return this.packages.get(id);
  }

  @Post(':id/plan')
  @HttpCode(200)
  @ApiErrors(404)
  @ApiOperation({ summary: 'The stored package planned again against the mirror (the way back from drift); writes nothing' })
  @ApiOkResponse({ type: PackagePlanView })
  planStored(@Param('id', IdPipe) id: number, @Req() req: Request, @Query() _query: NoQuery, @Body() _body: NoBody): Promise<PackagePlanView> {
    return this.packages.planStored(id, sourceOf(req));
  }

  @Post(':id/apply')
  @HttpCode(200)
  @ApiErrors(404)
  @ApiOperation({ summary: "The stored package applied again: its plan's batch submitted under the caller's source" })
  @ApiOkResponse({ type: ApplyView })
  applyStored(@Param('id', IdPipe) id: number, @Req() req: Request, @Query() _query: NoQuery, @Body() _body: NoBody): Promise<ApplyView> {
    return this.packages.applyStored(id, callerFrom(req));
  }

  @Get(':id/drift')
  @ApiErrors(404)
  @ApiOperation({ summary: 'Where the mirror no longer matches the applied package, per issue and field; the way back is to apply it again' })
  @ApiOkResponse({ type: DriftView })
  drift(@Param('id', IdPipe) id: number, @Query() _query: NoQuery): Promise<DriftView> {
    return this.packages.drift(id);
  }
}
