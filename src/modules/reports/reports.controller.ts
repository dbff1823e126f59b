import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import {
  ConversationsReportResponseDto,
  CsatReportResponseDto,
  ReportQueryDto,
  ResponseTimesReportResponseDto,
} from './reports.dto';
import { ReportsService } from './reports.service';

const CSV = {
  description: 'The report as CSV (RFC 4180), sent as an attachment',
  headers: { 'Content-Disposition': { schema: { type: 'string' } } },
  content: { 'text/csv': { schema: { type: 'string' } } },
} as const;

const csv = (body: string, name: string, query: ReportQueryDto) =>
  new StreamableFile(Buffer.from(body, 'utf8'), {
    type: 'text/csv; charset=utf-8',
    disposition: `attachment; filename="${name}-${query.from}-${query.to}.csv"`,
  });

/**
 * Reports over the conversations started from `from` to `to` (days in the site's time zone),
 * each also as CSV. Every agent may read them.
 */
@ApiTags('agent: reports')
@Agent()
@Controller('api/agent/reports')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get('conversations')
  @ApiOperation({
    summary: 'Conversations per day and the missed-chat rate, in total, per agent and per site',
  })
  @ApiOkResponse({ type: ConversationsReportResponseDto })
  @ApiErrors(422)
  async conversations(@CurrentAgent() agent: AgentPrincipal, @Query() query: ReportQueryDto) {
    return { data: await this.reports.conversations(agent.organizationId, query) };
  }

  @Get('conversations.csv')
  @ApiOperation({ summary: 'Conversations per day as CSV (date, conversations, missed)' })
  @ApiOkResponse(CSV)
  @ApiErrors(422)
  async conversationsCsv(@CurrentAgent() agent: AgentPrincipal, @Query() query: ReportQueryDto) {
    return csv(
      await this.reports.conversationsCsv(agent.organizationId, query),
      'conversations',
      query,
    );
  }

  @Get('response-times')
  @ApiOperation({
    summary:
      'First response and resolution times (median and p90), in total, per agent and per site',
  })
  @ApiOkResponse({ type: ResponseTimesReportResponseDto })
  @ApiErrors(422)
  async responseTimes(@CurrentAgent() agent: AgentPrincipal, @Query() query: ReportQueryDto) {
    return { data: await this.reports.responseTimes(agent.organizationId, query) };
  }

  @Get('response-times.csv')
  @ApiOperation({
    summary: 'Volumes and response times as CSV: the whole range, each agent, each site',
  })
  @ApiOkResponse(CSV)
  @ApiErrors(422)
  async responseTimesCsv(@CurrentAgent() agent: AgentPrincipal, @Query() query: ReportQueryDto) {
    return csv(
      await this.reports.responseTimesCsv(agent.organizationId, query),
      'response-times',
      query,
    );
  }

  @Get('csat')
  @ApiOperation({
    summary: 'Visitor ratings (CSAT): average and distribution, in total, per agent and per site',
  })
  @ApiOkResponse({ type: CsatReportResponseDto })
  @ApiErrors(422)
  async csat(@CurrentAgent() agent: AgentPrincipal, @Query() query: ReportQueryDto) {
    return { data: await this.reports.csat(agent.organizationId, query) };
  }

  @Get('csat.csv')
  @ApiOperation({ summary: 'Visitor ratings as CSV: the whole range, each agent, each site' })
  @ApiOkResponse(CSV)
  @ApiErrors(422)
  async csatCsv(@CurrentAgent() agent: AgentPrincipal, @Query() query: ReportQueryDto) {
    return csv(await this.reports.csatCsv(agent.organizationId, query), 'csat', query);
  }
}
