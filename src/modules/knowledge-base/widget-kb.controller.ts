import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentVisitor, WidgetSession } from '../../common/auth/auth.decorators';
import type { VisitorPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import {
  KbFeedbackDto,
  KbFeedbackResponseDto,
  WidgetArticleResponseDto,
  WidgetKbSearchQueryDto,
  WidgetKbSearchResponseDto,
} from './knowledge-base.dto';
import { KnowledgeBasePublic } from './knowledge-base.public';

/**
 * The widget's Help view (DESIGN section 10): published articles of the visitor's site only,
 * with the widget session token.
 */
@ApiTags('widget: knowledge base')
@Controller('api/widget/kb')
export class WidgetKbController {
  constructor(private readonly kb: KnowledgeBasePublic) {}

  @Get('search')
  @WidgetSession()
  @ApiOperation({
    summary: "Search the site's published articles, or suggest some",
    description:
      "With `q`: at most 10 published articles of the site's locale, by relevance, each with a highlighted snippet. Without: the most viewed published articles (suggestions for when the Help view opens).",
  })
  @ApiOkResponse({ type: WidgetKbSearchResponseDto })
  @ApiErrors(422)
  async search(
    @CurrentVisitor() visitor: VisitorPrincipal,
    @Query() query: WidgetKbSearchQueryDto,
  ) {
    return this.kb.widgetSearch(visitor, query.q, query.locale);
  }

  @Get('articles/:article')
  @WidgetSession()
  @ApiIdParam('article')
  @ApiOperation({
    summary: 'Read a published article (rendered HTML)',
    description: 'Counts a view, once per visitor, article and day.',
  })
  @ApiOkResponse({ type: WidgetArticleResponseDto })
  @ApiErrors(404)
  async article(@CurrentVisitor() visitor: VisitorPrincipal, @IdParam('article') id: string) {
    return { data: await this.kb.widgetArticle(visitor, id) };
  }

  @Post('articles/:article/feedback')
  @HttpCode(200)
  @WidgetSession()
  @ApiIdParam('article')
  @ApiOperation({
    summary: 'Answer "Was this helpful?" for an article',
    description: 'Once per visitor and article: a second answer is a 409 and changes nothing.',
  })
  @ApiOkResponse({ type: KbFeedbackResponseDto })
  @ApiErrors(404, 409, 422)
  @ResponseMessage('Thanks for your feedback.')
  async feedback(
    @CurrentVisitor() visitor: VisitorPrincipal,
    @IdParam('article') id: string,
    @Body() body: KbFeedbackDto,
  ) {
    await this.kb.feedback(visitor, id, body.helpful);
    return { data: { helpful: body.helpful } };
  }
}
