import { Body, Controller, Get, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKey, CurrentApiKey } from '../../common/auth/auth.decorators';
import type { ApiKeyPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ListLink, pageRequest, paginate } from '../../common/http/pagination';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AppConfig } from '../../config/app-config';
import { Idempotent } from '../idempotency/idempotent.decorator';
import {
  ArticleListDto,
  ArticleQueryDto,
  ArticleResponseDto,
  CreateArticleDto,
  toArticleDto,
  UpdateArticleDto,
} from './knowledge-base.dto';
import { KnowledgeBaseSearch } from './knowledge-base.search';
import { KnowledgeBaseService } from './knowledge-base.service';

/** Knowledge-base articles in the public API (DESIGN section 10): `kb:read`, `kb:write`. */
@ApiTags('public: knowledge base')
@Controller('api/v1/kb/articles')
export class PublicKbController {
  constructor(
    private readonly kb: KnowledgeBaseService,
    private readonly search: KnowledgeBaseSearch,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiKey('kb:read')
  @ApiOperation({
    summary: "List or search the organization's knowledge-base articles",
    description:
      "Newest first; with `q`, ranked by relevance (weighted full text in the article's language, typo-tolerant titles) with a highlighted `snippet`.",
  })
  @ApiOkResponse({ type: ArticleListDto })
  @ApiErrors(422)
  async list(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @Query() query: ArticleQueryDto,
    @ListLink() link: { path: string; query: Record<string, unknown> },
  ) {
    const page = pageRequest(query);
    const { data, total } = await this.search.list(key.organizationId, query, page);
    return paginate(data, total, page, this.config.publicUrl, link);
  }

  @Get(':article')
  @ApiKey('kb:read')
  @ApiIdParam('article')
  @ApiOperation({ summary: 'Read an article with its Markdown, rendered HTML and translations' })
  @ApiOkResponse({ type: ArticleResponseDto })
  @ApiErrors(404)
  async get(@CurrentApiKey() key: ApiKeyPrincipal, @IdParam('article') id: string) {
    const { article, translations } = await this.kb.article(key.organizationId, id);
    return { data: toArticleDto(article, translations, this.kb.url(article)) };
  }

  @Post()
  @Idempotent()
  @ApiKey('kb:write')
  @ApiOperation({
    summary: 'Write an article (a draft unless `status` says otherwise)',
    description:
      'The slug, derived from the title when omitted, is unique per site and locale (409 otherwise). Publishing emits `kb.article_published`.',
  })
  @ApiCreatedResponse({ type: ArticleResponseDto })
  @ApiErrors(409, 422)
  @ResponseMessage('Article created.')
  async create(@CurrentApiKey() key: ApiKeyPrincipal, @Body() body: CreateArticleDto) {
    const row = await this.kb.createArticle(key.organizationId, key.createdByUserId, body);
    const { article, translations } = await this.kb.article(key.organizationId, row.id);
    return { data: toArticleDto(article, translations, this.kb.url(article)) };
  }

  @Patch(':article')
  @Idempotent()
  @ApiKey('kb:write')
  @ApiIdParam('article')
  @ApiOperation({
    summary: 'Change an article: its text, category, translation link or status',
    description: 'Publishing a draft or archived article emits `kb.article_published`.',
  })
  @ApiOkResponse({ type: ArticleResponseDto })
  @ApiErrors(404, 409, 422)
  @ResponseMessage('Article updated.')
  async update(
    @CurrentApiKey() key: ApiKeyPrincipal,
    @IdParam('article') id: string,
    @Body() body: UpdateArticleDto,
  ) {
    await this.kb.updateArticle(key.organizationId, id, body);
    const { article, translations } = await this.kb.article(key.organizationId, id);
    return { data: toArticleDto(article, translations, this.kb.url(article)) };
  }
}
