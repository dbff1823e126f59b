import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { AppError } from '../../common/errors/app-error';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ListLink, PageQueryDto, pageRequest, paginate } from '../../common/http/pagination';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { AppConfig } from '../../config/app-config';
import {
  CreateWebhookDto,
  toDeliveryDto,
  toEndpointDto,
  UpdateWebhookDto,
  WebhookCreatedResponseDto,
  WebhookDeliveryPageDto,
  WebhookDeliveryResponseDto,
  WebhookEndpointPageDto,
  WebhookEndpointResponseDto,
} from './webhooks.dto';
import { WebhooksService } from './webhooks.service';

type Link = { path: string; query: Record<string, unknown> };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A delivery id path parameter: not a UUID names nothing (404). */
const deliveryId = (value: string): string => {
  if (!UUID.test(value)) throw AppError.notFound();
  return value;
};

/** Outgoing webhooks (Team & Organization settings): owners and admins only. */
@ApiTags('agent: webhooks')
@Controller('api/agent/webhooks')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly config: AppConfig,
  ) {}

  @Post()
  @Agent({ role: 'admin' })
  @ApiOperation({
    summary:
      'Add an endpoint; its signing secret is shown once (409 past WEBHOOK_ENDPOINTS_MAX endpoints)',
  })
  @ApiCreatedResponse({ type: WebhookCreatedResponseDto })
  @ApiErrors(409, 422)
  @ResponseMessage('Webhook endpoint created.')
  async create(@CurrentAgent() agent: AgentPrincipal, @Body() body: CreateWebhookDto) {
    const { endpoint, secret } = await this.webhooks.create(
      agent.organizationId,
      agent.userId,
      body,
    );
    return { data: toEndpointDto(endpoint), signing_secret: secret };
  }

  @Get()
  @Agent({ role: 'admin' })
  @ApiOperation({ summary: 'List endpoints, newest first' })
  @ApiOkResponse({ type: WebhookEndpointPageDto })
  @ApiErrors(422)
  async list(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: PageQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.webhooks.page(agent.organizationId, page);
    return paginate(rows.map(toEndpointDto), total, page, this.config.publicUrl, link);
  }

  @Get(':webhook')
  @Agent({ role: 'admin' })
  @ApiIdParam('webhook')
  @ApiOperation({ summary: 'Read an endpoint' })
  @ApiOkResponse({ type: WebhookEndpointResponseDto })
  @ApiErrors(404)
  async get(@CurrentAgent() agent: AgentPrincipal, @IdParam('webhook') id: string) {
    return { data: toEndpointDto(await this.webhooks.get(agent.organizationId, id)) };
  }

  @Patch(':webhook')
  @Agent({ role: 'admin' })
  @ApiIdParam('webhook')
  @ApiOperation({
    summary: 'Change the URL, events, description or is_active (true re-enables a disabled one)',
  })
  @ApiOkResponse({ type: WebhookEndpointResponseDto })
  @ApiErrors(404, 422)
  async update(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('webhook') id: string,
    @Body() body: UpdateWebhookDto,
  ) {
    return { data: toEndpointDto(await this.webhooks.update(agent.organizationId, id, body)) };
  }

  @Delete(':webhook')
  @Agent({ role: 'admin' })
  @ApiIdParam('webhook')
  @ApiOperation({ summary: 'Delete an endpoint and its deliveries log' })
  @ApiOkResponse({ type: EnvelopeDto })
  @ApiErrors(404)
  @ResponseMessage('Webhook endpoint deleted.')
  async remove(@CurrentAgent() agent: AgentPrincipal, @IdParam('webhook') id: string) {
    await this.webhooks.remove(agent.organizationId, id);
    return {};
  }

  @Post(':webhook/test')
  @HttpCode(200)
  @Agent({ role: 'admin' })
  @ApiIdParam('webhook')
  @ApiOperation({
    summary: 'Send a `webhook.ping` delivery now (one attempt) and answer how it went',
  })
  @ApiOkResponse({ type: WebhookDeliveryResponseDto })
  @ApiErrors(404)
  async test(@CurrentAgent() agent: AgentPrincipal, @IdParam('webhook') id: string) {
    const { row, attempts } = await this.webhooks.ping(agent.organizationId, id);
    return { data: toDeliveryDto(row, attempts) };
  }

  @Get(':webhook/deliveries')
  @Agent({ role: 'admin' })
  @ApiIdParam('webhook')
  @ApiOperation({ summary: "The endpoint's deliveries, newest first, each with every attempt" })
  @ApiOkResponse({ type: WebhookDeliveryPageDto })
  @ApiErrors(404, 422)
  async deliveries(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('webhook') id: string,
    @Query() query: PageQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.webhooks.deliveries(agent.organizationId, id, page);
    return paginate(
      rows.map(({ row, attempts }) => toDeliveryDto(row, attempts)),
      total,
      page,
      this.config.publicUrl,
      link,
    );
  }

  @Post(':webhook/deliveries/:delivery/redeliver')
  @HttpCode(202)
  @Agent({ role: 'admin' })
  @ApiIdParam('webhook')
  @ApiParam({ name: 'delivery', format: 'uuid' })
  @ApiOperation({ summary: 'Send a delivery again (same delivery id and body)' })
  @ApiAcceptedResponse({ type: WebhookDeliveryResponseDto })
  @ApiErrors(404, 409)
  @ResponseMessage('Redelivery queued.')
  async redeliver(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('webhook') id: string,
    @Param('delivery') delivery: string,
  ) {
    const { row, attempts } = await this.webhooks.redeliver(
      agent.organizationId,
      id,
      deliveryId(delivery),
    );
    return { data: toDeliveryDto(row, attempts) };
  }
}
