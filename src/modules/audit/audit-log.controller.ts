import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { toCsv } from '../../common/http/csv';
import { ListLink, pageRequest, paginate } from '../../common/http/pagination';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AppConfig } from '../../config/app-config';
import { AuditLogListResponseDto, AuditLogQueryDto, toAuditEntryDto } from './audit-log.dto';
import type { AuditFilter } from './audit-log.repository';
import { AuditLogService } from './audit-log.service';

type Link = { path: string; query: Record<string, unknown> };

/** The most rows one CSV download holds (newest first); narrow the filter for older ones. */
const CSV_LIMIT = 10_000;

const CSV_HEADER = [
  'id',
  'created_at',
  'actor_type',
  'actor_id',
  'actor_name',
  'action',
  'target_type',
  'target_id',
  'target_label',
  'changes',
  'ip',
  'user_agent',
  'request_id',
];

function filterOf(query: AuditLogQueryDto): AuditFilter {
  return {
    actorId: query.actor_id,
    action: query.action,
    targetType: query.target_type,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
  };
}

@ApiTags('agent: audit log')
@Agent({ role: 'admin' })
@Controller('api/agent/audit-log')
export class AuditLogController {
  constructor(
    private readonly audit: AuditLogService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      "The organization's audit log, newest first: who changed what, from where (owner or admin); `format=csv` downloads it",
  })
  @ApiExtraModels(AuditLogListResponseDto)
  @ApiOkResponse({
    description: 'A page of entries, or with `format=csv` every matching entry as CSV',
    headers: { 'Content-Disposition': { schema: { type: 'string' }, required: false } },
    content: {
      'application/json': { schema: { $ref: getSchemaPath(AuditLogListResponseDto) } },
      'text/csv': { schema: { type: 'string' } },
    },
  })
  @ApiErrors(422)
  async list(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: AuditLogQueryDto,
    @ListLink() link: Link,
  ) {
    const filter = filterOf(query);
    if (query.format === 'csv') {
      const rows = await this.audit.all(agent.organizationId, filter, CSV_LIMIT);
      const body = toCsv(
        CSV_HEADER,
        rows.map((row) => [
          Number(row.id),
          new Date(row.created_at).toISOString(),
          row.actor_type,
          row.actor_id,
          row.actor_name,
          row.action,
          row.target_type,
          row.target_id,
          row.target_label,
          JSON.stringify(row.changes),
          row.ip,
          row.user_agent,
          row.request_id,
        ]),
      );
      return new StreamableFile(Buffer.from(body, 'utf8'), {
        type: 'text/csv; charset=utf-8',
        disposition: 'attachment; filename="audit-log.csv"',
      });
    }
    const page = pageRequest(query);
    const { rows, total } = await this.audit.page(agent.organizationId, filter, page);
    return paginate(rows.map(toAuditEntryDto), total, page, this.config.publicUrl, link);
  }
}
