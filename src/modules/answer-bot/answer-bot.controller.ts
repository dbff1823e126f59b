import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  Agent,
  CurrentAgent,
  CurrentVisitor,
  WidgetSession,
} from '../../common/auth/auth.decorators';
import type { AgentPrincipal, VisitorPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ListLink, pageRequest, paginate } from '../../common/http/pagination';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { AppConfig } from '../../config/app-config';
import { ConversationEndedResponseDto } from '../conversations/widget-chat.dto';
import {
  AnswerLogListDto,
  AnswerLogQueryDto,
  toAnswerLogEntry,
  AnswerBotReportQueryDto,
  AnswerBotReportResponseDto,
  AnswerBotSettingsDto,
  AnswerBotSettingsResponseDto,
  BotActionDto,
  toSettingsDto,
} from './answer-bot.dto';
import { AnswerBotService } from './answer-bot.service';

const DAY_MS = 86_400_000;

type Link = { path: string; query: Record<string, unknown> };

/** The answer bot's settings per site and its report (DESIGN section 11). */
@ApiTags('agent: answer bot')
@Controller('api/agent')
export class AnswerBotController {
  constructor(
    private readonly bot: AnswerBotService,
    private readonly config: AppConfig,
  ) {}

  @Get('sites/:site/answer-bot')
  @Agent()
  @ApiIdParam('site')
  @ApiOperation({ summary: "The site's answer bot settings (off by default)" })
  @ApiOkResponse({ type: AnswerBotSettingsResponseDto })
  @ApiErrors(404)
  async settings(@CurrentAgent() agent: AgentPrincipal, @IdParam('site') siteId: string) {
    const site = await this.bot.siteOf(agent.organizationId, siteId);
    const settings = await this.bot.settings(agent.organizationId, site);
    return { data: toSettingsDto(settings, this.bot.generativeAvailable) };
  }

  @Put('sites/:site/answer-bot')
  @Agent({ role: 'admin' })
  @ApiIdParam('site')
  @ApiOperation({ summary: "Change the site's answer bot settings" })
  @ApiOkResponse({ type: AnswerBotSettingsResponseDto })
  @ApiErrors(404, 422)
  @ResponseMessage('Answer bot settings saved.')
  async save(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('site') siteId: string,
    @Body() body: AnswerBotSettingsDto,
  ) {
    const saved = await this.bot.saveSettings(agent.organizationId, siteId, {
      enabled: body.enabled,
      min_score: body.min_score,
      handoff_message: body.handoff_message,
      max_answers: body.max_answers,
      generative: body.generative ?? false,
      guidance: body.guidance ?? null,
      forbidden_topics: body.forbidden_topics ?? [],
      daily_cap: body.daily_cap ?? 200,
    });
    return { data: toSettingsDto(saved, this.bot.generativeAvailable) };
  }

  @Get('answer-log')
  @Agent()
  @ApiOperation({
    summary:
      'Every generated answer: the question, the passages given, the answer, model, latency and the visitor’s feedback',
  })
  @ApiOkResponse({ type: AnswerLogListDto })
  @ApiErrors(422)
  async answerLog(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: AnswerLogQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.bot.answerLog(
      agent.organizationId,
      { siteId: query.site_id === undefined ? undefined : String(query.site_id) },
      page,
    );
    return paginate(rows.map(toAnswerLogEntry), total, page, this.config.publicUrl, link);
  }

  @Get('answer-bot/report')
  @Agent()
  @ApiOperation({
    summary:
      'What the answer bot did: questions answered, conversations it resolved or handed over, and the questions it could not answer',
  })
  @ApiOkResponse({ type: AnswerBotReportResponseDto })
  @ApiErrors(422)
  async report(@CurrentAgent() agent: AgentPrincipal, @Query() query: AnswerBotReportQueryDto) {
    const to = new Date();
    const from = new Date(to.getTime() - (query.days ?? 30) * DAY_MS);
    const { totals, unanswered } = await this.bot.report(agent.organizationId, {
      from,
      to,
      siteId: query.site_id === undefined ? undefined : String(query.site_id),
    });
    return { data: { ...totals, unanswered } };
  }
}

/** The visitor's answers to the bot's buttons. */
@ApiTags('widget')
@Controller('api/widget')
export class WidgetAnswerBotController {
  constructor(private readonly bot: AnswerBotService) {}

  @Post('bot-resolved')
  @HttpCode(200)
  @WidgetSession()
  @ApiOperation({
    summary: '"That helped": the conversation closes, resolved by the answer bot',
  })
  @ApiOkResponse({ type: ConversationEndedResponseDto })
  @ApiErrors(404, 409, 422)
  async resolved(@CurrentVisitor() visitor: VisitorPrincipal, @Body() body: BotActionDto) {
    const ended = await this.bot.resolved(visitor, String(body.conversation_id));
    return {
      data: {
        id: Number(ended.id),
        status: ended.status,
        closed_at: new Date(ended.closedAt).toISOString(),
      },
    };
  }

  @Post('handoff')
  @HttpCode(200)
  @WidgetSession()
  @ApiOperation({
    summary:
      '"Talk to a person": the bot says its handoff message and leaves the conversation to the team',
  })
  @ApiOkResponse({ type: EnvelopeDto })
  @ApiErrors(404, 409, 422)
  @ResponseMessage('A person will answer.')
  async handoff(@CurrentVisitor() visitor: VisitorPrincipal, @Body() body: BotActionDto) {
    await this.bot.handoff(visitor, String(body.conversation_id));
    return {};
  }
}
