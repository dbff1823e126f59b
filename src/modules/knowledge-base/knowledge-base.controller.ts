import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ListLink, pageRequest, paginate } from '../../common/http/pagination';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { AppConfig } from '../../config/app-config';
import {
  AgentArticleQueryDto,
  ArticleListDto,
  ArticleResponseDto,
  CategoryListDto,
  CategoryQueryDto,
  CategoryResponseDto,
  CreateArticleDto,
  CreateCategoryDto,
  toArticleDto,
  toCategoryDto,
  UpdateArticleDto,
  UpdateCategoryDto,
} from './knowledge-base.dto';
import { KnowledgeBaseService } from './knowledge-base.service';
import { KnowledgeBaseSearch } from './knowledge-base.search';

type Link = { path: string; query: Record<string, unknown> };

/** The knowledge base (DESIGN section 10): every member reads, owners and admins write. */
@ApiTags('agent: knowledge base')
@Controller('api/agent/kb')
export class KnowledgeBaseController {
  constructor(
    private readonly kb: KnowledgeBaseService,
    private readonly search: KnowledgeBaseSearch,
    private readonly config: AppConfig,
  ) {}

  @Get('categories')
  @Agent()
  @ApiOperation({ summary: 'List knowledge-base categories by site, locale and position' })
  @ApiOkResponse({ type: CategoryListDto })
  @ApiErrors(422)
  async categories(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: CategoryQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const filter = {
      siteId: query.site_id === undefined ? undefined : String(query.site_id),
      locale: query.locale,
    };
    const { rows, total } = await this.kb.categoryPage(agent.organizationId, filter, page);
    return paginate(rows.map(toCategoryDto), total, page, this.config.publicUrl, link);
  }

  @Post('categories')
  @Agent({ role: 'admin' })
  @ApiOperation({
    summary:
      'Create a category (the slug, derived from the name when omitted, is unique per site and locale)',
  })
  @ApiCreatedResponse({ type: CategoryResponseDto })
  @ApiErrors(409, 422)
  @ResponseMessage('Category created.')
  async createCategory(@CurrentAgent() agent: AgentPrincipal, @Body() body: CreateCategoryDto) {
    return { data: toCategoryDto(await this.kb.createCategory(agent.organizationId, body)) };
  }

  @Patch('categories/:category')
  @Agent({ role: 'admin' })
  @ApiIdParam('category')
  @ApiOperation({ summary: "Change a category's name, slug, description, position or locale" })
  @ApiOkResponse({ type: CategoryResponseDto })
  @ApiErrors(404, 409, 422)
  @ResponseMessage('Category updated.')
  async updateCategory(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('category') id: string,
    @Body() body: UpdateCategoryDto,
  ) {
    return { data: toCategoryDto(await this.kb.updateCategory(agent.organizationId, id, body)) };
  }

  @Delete('categories/:category')
  @HttpCode(200)
  @Agent({ role: 'admin' })
  @ApiIdParam('category')
  @ApiOperation({ summary: 'Delete a category (its articles stay, without a category)' })
  @ApiOkResponse({ type: EnvelopeDto })
  @ApiErrors(404)
  @ResponseMessage('Category deleted.')
  async removeCategory(@CurrentAgent() agent: AgentPrincipal, @IdParam('category') id: string) {
    await this.kb.removeCategory(agent.organizationId, id);
    return {};
  }

  @Get('articles')
  @Agent()
  @ApiOperation({
    summary: 'List or search knowledge-base articles',
    description:
      "Newest first; with `q`, ranked by relevance (weighted full text in the article's language, typo-tolerant titles) with a highlighted `snippet`.",
  })
  @ApiOkResponse({ type: ArticleListDto })
  @ApiErrors(422)
  async articles(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: AgentArticleQueryDto,
    @ListLink() link: Link,
  ) {
    const page = pageRequest(query);
    const { data, total } = await this.search.list(agent.organizationId, query, page);
    return paginate(data, total, page, this.config.publicUrl, link);
  }

  @Post('articles')
  @Agent({ role: 'admin' })
  @ApiOperation({ summary: 'Write an article (a draft unless `status` says otherwise)' })
  @ApiCreatedResponse({ type: ArticleResponseDto })
  @ApiErrors(409, 422)
  @ResponseMessage('Article created.')
  async createArticle(@CurrentAgent() agent: AgentPrincipal, @Body() body: CreateArticleDto) {
    const row = await this.kb.createArticle(agent.organizationId, agent.userId, body);
    const { article, translations } = await this.kb.article(agent.organizationId, row.id);
    return { data: toArticleDto(article, translations, this.kb.url(article)) };
  }

  @Get('articles/:article')
  @Agent()
  @ApiIdParam('article')
  @ApiOperation({ summary: 'Read an article with its Markdown, rendered HTML and translations' })
  @ApiOkResponse({ type: ArticleResponseDto })
  @ApiErrors(404)
  async article(@CurrentAgent() agent: AgentPrincipal, @IdParam('article') id: string) {
    const { article, translations } = await this.kb.article(agent.organizationId, id);
    return { data: toArticleDto(article, translations, this.kb.url(article)) };
  }

  @Patch('articles/:article')
  @Agent({ role: 'admin' })
  @ApiIdParam('article')
  @ApiOperation({ summary: 'Change an article: its text, category, translation link or status' })
  @ApiOkResponse({ type: ArticleResponseDto })
  @ApiErrors(404, 409, 422)
  @ResponseMessage('Article updated.')
  async updateArticle(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('article') id: string,
    @Body() body: UpdateArticleDto,
  ) {
    await this.kb.updateArticle(agent.organizationId, id, body);
    const { article, translations } = await this.kb.article(agent.organizationId, id);
    return { data: toArticleDto(article, translations, this.kb.url(article)) };
  }

  @Delete('articles/:article')
  @HttpCode(200)
  @Agent({ role: 'admin' })
  @ApiIdParam('article')
  @ApiOperation({ summary: 'Delete an article (its translations stay)' })
  @ApiOkResponse({ type: EnvelopeDto })
  @ApiErrors(404)
  @ResponseMessage('Article deleted.')
  async removeArticle(@CurrentAgent() agent: AgentPrincipal, @IdParam('article') id: string) {
    await this.kb.removeArticle(agent.organizationId, id);
    return {};
  }
}
