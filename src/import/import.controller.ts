import { Controller, HttpCode, Post, Query, UploadedFiles, UseInterceptors } from '@nestjs/common';
import { ApiErrors, AssistantToo, BulkTurnInterceptor, NoQuery } from '../common/index.js';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ImportReportView } from './import-report.view.js';
import { ImportService } from './import.service.js';
import { PackageUploadInterceptor } from './package-upload.interceptor.js';

type Uploaded = { notes?: { buffer: Buffer }[]; links?: { buffer: Buffer }[] };

@ApiTags('import')
@AssistantToo()
@ApiErrors(401, 403, 413, 422)
@Controller('import')
export class ImportController {
  constructor(private readonly importer: ImportService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Import a planning package (notes.csv, links.csv) and compare its links with the mirror',
    description: 'multipart/form-data with at most one file in each of the fields notes and links; 10 MB for the whole request.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      properties: { notes: { type: 'string', format: 'binary' }, links: { type: 'string', format: 'binary' } },
    },
  })
  @ApiOkResponse({ type: ImportReportView })
  @UseInterceptors(BulkTurnInterceptor, PackageUploadInterceptor)
  import(@UploadedFiles() files: Uploaded = {}, @Query() _query: NoQuery): Promise<ImportReportView> {
    return this.importer.import({ notes: files.notes?.[0]?.buffer, links: files.links?.[0]?.buffer });
  }
}
