import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
} from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentAgent, PlatformAdmin } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ListLink, pageRequest, paginate } from '../../common/http/pagination';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AppConfig } from '../../config/app-config';
import type { Request } from 'express';
import { InstanceHeartbeat, GONE_AFTER_SECONDS } from './instance-heartbeat';
import {
  FailingWebhooksResponseDto,
  InstancesResponseDto,
  MailFailuresResponseDto,
  JobActionResponseDto,
  PlatformOrganizationListDto,
  PlatformOrganizationResponseDto,
  PlatformOrganizationsQueryDto,
  QueuesOverviewResponseDto,
  SuspendOrganizationDto,
  toFailedMailDto,
  toFailingEndpointDto,
  toInstanceDto,
  toPlatformOrganizationDto,
  UpdatePlatformOrganizationDto,
} from './platform.dto';
import { PlatformOrganizationsService } from './platform-organizations.service';
import { PlatformQueuesService } from './platform-queues.service';
import { PlatformRepository, type OperatorActor } from './platform.repository';

type Link = { path: string; query: Record<string, unknown> };

function actorOf(agent: AgentPrincipal, request: Request): OperatorActor {
  return { type: 'user', userId: agent.userId, ip: request.ip, requestId: request.id };
}

/**
 * The platform administrators' console (DESIGN section 13): every organization, queue health and
 * the running instances. Anyone but a platform administrator gets 404 on every route here.
 */
@ApiTags('platform')
@PlatformAdmin()
@Controller('api/platform')
export class PlatformController {
  constructor(
    private readonly organizations: PlatformOrganizationsService,
    private readonly queues: PlatformQueuesService,
    private readonly repository: PlatformRepository,
    private readonly heartbeat: InstanceHeartbeat,
    private readonly config: AppConfig,
  ) {}

  @Get('organizations')
  @ApiOperation({ summary: 'Every organization with its usage, newest first; `q` searches' })
  @ApiOkResponse({ type: PlatformOrganizationListDto })
  @ApiErrors(422)
  async list(@Query() query: PlatformOrganizationsQueryDto, @ListLink() link: Link) {
    const page = pageRequest(query);
    const q = query.q?.trim() || undefined;
    const { rows, total } = await this.organizations.list(q, page);
    return paginate(rows.map(toPlatformOrganizationDto), total, page, this.config.publicUrl, link);
  }

  @Get('organizations/:organization')
  @ApiIdParam('organization')
  @ApiOperation({ summary: 'One organization with its usage' })
  @ApiOkResponse({ type: PlatformOrganizationResponseDto })
  async get(@IdParam('organization') id: string) {
    return { data: toPlatformOrganizationDto(await this.organizations.get(id)) };
  }

  @Patch('organizations/:organization')
  @ApiIdParam('organization')
  @ApiOperation({ summary: "Change an organization's plan or subscription end (null: never)" })
  @ApiOkResponse({ type: PlatformOrganizationResponseDto })
  @ApiErrors(422)
  @ResponseMessage('Organization updated.')
  async update(
    @IdParam('organization') id: string,
    @Body() body: UpdatePlatformOrganizationDto,
    @CurrentAgent() agent: AgentPrincipal,
    @Req() request: Request,
  ) {
    const changes: {
      plan?: UpdatePlatformOrganizationDto['plan'];
      subscription_ends_at?: Date | null;
    } = {};
    if (body.plan !== undefined) changes.plan = body.plan;
    if (body.subscription_ends_at !== undefined)
      changes.subscription_ends_at =
        body.subscription_ends_at === null ? null : new Date(body.subscription_ends_at);
    const row = await this.organizations.update(id, changes, actorOf(agent, request));
    return { data: toPlatformOrganizationDto(row) };
  }

  @Post('organizations/:organization/suspend')
  @HttpCode(200)
  @ApiIdParam('organization')
  @ApiOperation({
    summary: 'Suspend an organization: its widget answers 402 and its members see the reason',
  })
  @ApiOkResponse({ type: PlatformOrganizationResponseDto })
  @ApiErrors(422)
  @ResponseMessage('Organization suspended.')
  async suspend(
    @IdParam('organization') id: string,
    @Body() body: SuspendOrganizationDto,
    @CurrentAgent() agent: AgentPrincipal,
    @Req() request: Request,
  ) {
    const row = await this.organizations.setSuspension(
      id,
      body.reason.trim(),
      actorOf(agent, request),
    );
    return { data: toPlatformOrganizationDto(row) };
  }

  @Post('organizations/:organization/resume')
  @HttpCode(200)
  @ApiIdParam('organization')
  @ApiOperation({ summary: 'Resume a suspended organization' })
  @ApiOkResponse({ type: PlatformOrganizationResponseDto })
  @ResponseMessage('Organization resumed.')
  async resume(
    @IdParam('organization') id: string,
    @CurrentAgent() agent: AgentPrincipal,
    @Req() request: Request,
  ) {
    const row = await this.organizations.setSuspension(id, null, actorOf(agent, request));
    return { data: toPlatformOrganizationDto(row) };
  }

  @Get('queues')
  @ApiOperation({
    summary:
      "Each queue's jobs by state, oldest waiting job and newest failed jobs; the outbox backlog",
  })
  @ApiOkResponse({ type: QueuesOverviewResponseDto })
  async queueHealth() {
    return { data: await this.queues.overview() };
  }

  @Post('queues/:queue/jobs/:job/retry')
  @HttpCode(200)
  @ApiParam({ name: 'queue', type: String })
  @ApiParam({ name: 'job', type: String })
  @ApiOperation({ summary: 'Run a failed job again' })
  @ApiOkResponse({ type: JobActionResponseDto })
  @ApiErrors(409)
  @ResponseMessage('Job queued again.')
  async retry(
    @Param('queue') queue: string,
    @Param('job') job: string,
    @CurrentAgent() agent: AgentPrincipal,
    @Req() request: Request,
  ) {
    return { data: await this.queues.retry(queue, job, actorOf(agent, request)) };
  }

  @Delete('queues/:queue/jobs/:job')
  @ApiParam({ name: 'queue', type: String })
  @ApiParam({ name: 'job', type: String })
  @ApiOperation({ summary: 'Remove a job that is not running' })
  @ApiOkResponse({ type: JobActionResponseDto })
  @ApiErrors(409)
  @ResponseMessage('Job removed.')
  async removeJob(
    @Param('queue') queue: string,
    @Param('job') job: string,
    @CurrentAgent() agent: AgentPrincipal,
    @Req() request: Request,
  ) {
    return { data: await this.queues.remove(queue, job, actorOf(agent, request)) };
  }

  @Get('webhooks/failing')
  @ApiOperation({
    summary:
      'Webhook endpoints failing now or disabled, across every organization, with their last failure',
  })
  @ApiOkResponse({ type: FailingWebhooksResponseDto })
  async failingWebhooks() {
    const rows = await this.repository.failingEndpoints(100);
    return { data: rows.map(toFailingEndpointDto) };
  }

  @Get('mail/failed')
  @ApiOperation({
    summary: 'The newest mails given up on, across every organization, with their error',
  })
  @ApiOkResponse({ type: MailFailuresResponseDto })
  async failedMails() {
    const { rows, lastDay } = await this.repository.failedMails(50);
    return { data: { failed_last_day: lastDay, mails: rows.map(toFailedMailDto) } };
  }

  @Get('instances')
  @ApiOperation({
    summary: 'The instances heard from in the last minute (each writes a heartbeat)',
  })
  @ApiOkResponse({ type: InstancesResponseDto })
  async instances() {
    const rows = await this.repository.instances(GONE_AFTER_SECONDS);
    return { data: rows.map((row) => toInstanceDto(row, this.heartbeat.id)) };
  }
}
