import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { PageMetaDto, PageQueryDto, QueryInt } from '../../common/http/pagination';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { HELP_CENTER_LOCALES } from '../sites/help-center-settings';
import {
  ARTICLE_STATUSES,
  type ArticleHitRow,
  type ArticleRow,
  type ArticleStatus,
  type ArticleSummaryRow,
  type CategoryRow,
  type TranslationRow,
} from './knowledge-base.repository';
import { iso } from '../../common/time/iso';

/** The locales articles and categories are written in: the widget's (and help center's) six. */
export const KB_LOCALES = HELP_CENTER_LOCALES;
/** Lower-case letters and digits of any script, joined by single dashes. */
export const SLUG = /^[\p{Ll}\p{Lo}\p{Nd}]+(?:-[\p{Ll}\p{Lo}\p{Nd}]+)*$/u;
const SLUG_MESSAGE =
  'The slug may only contain lower-case letters and digits joined by single dashes (at most 120).';
export const MAX_BODY = 100_000;

// Queries ----------------------------------------------------------------------------------------

export class CategoryQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: Number, minimum: 1 })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  site_id?: number;

  @ApiPropertyOptional({ enum: KB_LOCALES })
  @IsOptional()
  @IsIn(KB_LOCALES)
  locale?: string;
}

export class ArticleQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: Number, minimum: 1 })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  site_id?: number;

  @ApiPropertyOptional({ enum: KB_LOCALES })
  @IsOptional()
  @IsIn(KB_LOCALES)
  locale?: string;

  @ApiPropertyOptional({ enum: ARTICLE_STATUSES })
  @IsOptional()
  @IsIn(ARTICLE_STATUSES)
  status?: ArticleStatus;

  @ApiPropertyOptional({
    maxLength: 200,
    description:
      'Search: ranked by relevance (title above excerpt above body, typos in titles forgiven), with a highlighted `snippet`',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;
}

export class AgentArticleQueryDto extends ArticleQueryDto {
  @ApiPropertyOptional({ type: Number, minimum: 1 })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  category_id?: number;
}

// Categories -------------------------------------------------------------------------------------

export class UpdateCategoryDto {
  @ApiPropertyOptional({ enum: KB_LOCALES })
  @IsOptional()
  @IsIn(KB_LOCALES)
  locale?: string;

  @ApiPropertyOptional({ example: 'Billing', maxLength: 120 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  name?: string;

  @ApiPropertyOptional({ example: 'billing', pattern: SLUG.source, maxLength: 120 })
  @IsOptional()
  @IsString()
  @MaxLength(120)
  @Matches(SLUG, { message: SLUG_MESSAGE })
  slug?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string | null;

  @ApiPropertyOptional({ minimum: 0, maximum: 100000, default: 0, description: 'Order, ascending' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100000)
  position?: number;
}

export class CreateCategoryDto extends UpdateCategoryDto {
  @ApiProperty({ minimum: 1 })
  @IsInt()
  @Min(1)
  site_id!: number;

  @ApiProperty({ example: 'Billing', maxLength: 120 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  declare name: string;

  @ApiPropertyOptional({
    enum: KB_LOCALES,
    description: "Default: the site's help-center default locale",
  })
  @IsOptional()
  @IsIn(KB_LOCALES)
  declare locale?: string;
}

export class CategoryDto {
  @ApiProperty() id!: number;
  @ApiProperty() site_id!: number;
  @ApiProperty({ enum: KB_LOCALES }) locale!: string;
  @ApiProperty() name!: string;
  @ApiProperty() slug!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty() position!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export function toCategoryDto(row: CategoryRow): CategoryDto {
  return {
    id: Number(row.id),
    site_id: Number(row.site_id),
    locale: row.locale,
    name: row.name,
    slug: row.slug,
    description: row.description,
    position: row.position,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export class CategoryResponseDto extends EnvelopeDto {
  @ApiProperty({ type: CategoryDto }) data!: CategoryDto;
}

export class CategoryListDto extends PageMetaDto {
  @ApiProperty({ type: [CategoryDto], description: 'By site, locale, position and name' })
  data!: CategoryDto[];
}

// Articles ---------------------------------------------------------------------------------------

export class UpdateArticleDto {
  @ApiPropertyOptional({ enum: KB_LOCALES })
  @IsOptional()
  @IsIn(KB_LOCALES)
  locale?: string;

  @ApiPropertyOptional({ example: 'Reset your password', maxLength: 255 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  title?: string;

  @ApiPropertyOptional({
    example: 'reset-your-password',
    pattern: SLUG.source,
    maxLength: 120,
    description: 'Unique per site and locale (409 otherwise); derived from the title when omitted',
  })
  @IsOptional()
  @IsString()
  @MaxLength(120)
  @Matches(SLUG, { message: SLUG_MESSAGE })
  slug?: string;

  @ApiPropertyOptional({ description: 'Markdown (raw HTML is shown as text)', maxLength: MAX_BODY })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_BODY, { message: `The body may be at most ${MAX_BODY} characters long.` })
  body?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  excerpt?: string | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'A category of the same site and locale; `null` for none',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  category_id?: number | null;

  @ApiPropertyOptional({ enum: ARTICLE_STATUSES, default: 'draft' })
  @IsOptional()
  @IsIn(ARTICLE_STATUSES)
  status?: ArticleStatus;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description:
      "The article (same site, another locale) this one translates; `null` unlinks it. Kept as the group's original",
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  translation_of?: number | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000 })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true })
  @MaxLength(2000)
  source_url?: string | null;
}

export class CreateArticleDto extends UpdateArticleDto {
  @ApiProperty({ minimum: 1 })
  @IsInt()
  @Min(1)
  site_id!: number;

  @ApiProperty({ example: 'Reset your password', maxLength: 255 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  declare title: string;

  @ApiPropertyOptional({
    enum: KB_LOCALES,
    description: "Default: the site's help-center default locale",
  })
  @IsOptional()
  @IsIn(KB_LOCALES)
  declare locale?: string;
}

export class TranslationDto {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: KB_LOCALES }) locale!: string;
  @ApiProperty() title!: string;
  @ApiProperty() slug!: string;
  @ApiProperty({ enum: ARTICLE_STATUSES }) status!: ArticleStatus;
}

export class ArticleSummaryDto {
  @ApiProperty() id!: number;
  @ApiProperty() site_id!: number;
  @ApiProperty({ enum: KB_LOCALES }) locale!: string;
  @ApiProperty() title!: string;
  @ApiProperty() slug!: string;
  @ApiProperty({ type: String, nullable: true }) excerpt!: string | null;
  @ApiProperty({ type: Number, nullable: true }) category_id!: number | null;
  @ApiProperty({ enum: ARTICLE_STATUSES }) status!: ArticleStatus;
  @ApiProperty({ type: Number, nullable: true }) translation_of!: number | null;
  @ApiProperty({ description: 'Views (once per visitor and day)' }) views!: number;
  @ApiProperty() helpful!: number;
  @ApiProperty() not_helpful!: number;
  @ApiProperty({ type: String, nullable: true }) source_url!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  published_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ description: 'Its public help-center address (answers once published)' })
  url!: string;
}

export class ArticleHitDto extends ArticleSummaryDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'With `q`: an HTML-escaped passage of the body with the matches in `<mark>` (only `<mark>` is markup)',
  })
  snippet?: string | null;
}

export class ArticleDto extends ArticleSummaryDto {
  @ApiProperty({ description: 'Markdown' }) body!: string;
  @ApiProperty({ description: 'The body rendered to HTML on the server (safe to show as it is)' })
  html!: string;
  @ApiProperty({
    type: [TranslationDto],
    description: 'The other articles of its translation group',
  })
  translations!: TranslationDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Markdown a content import found on the source page after the article was edited here (the edit is kept; save this as the body to take it)',
  })
  import_suggestion!: string | null;
}

const idOrNull = (id: string | null) => (id === null ? null : Number(id));

export function toArticleSummaryDto(row: ArticleSummaryRow, url: string): ArticleSummaryDto {
  return {
    id: Number(row.id),
    site_id: Number(row.site_id),
    locale: row.locale,
    title: row.title,
    slug: row.slug,
    excerpt: row.excerpt,
    category_id: idOrNull(row.category_id),
    status: row.status,
    translation_of: idOrNull(row.translation_of),
    views: row.views,
    helpful: row.helpful,
    not_helpful: row.not_helpful,
    source_url: row.source_url,
    published_at: iso(row.published_at),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    url,
  };
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string,
  );

/** A snippet from the search: the text escaped, then its match markers turned into `<mark>`. */
export function snippetHtml(raw: string | null): string | null {
  if (raw === null) return null;
  return escapeHtml(raw).split('\u0001').join('<mark>').split('\u0002').join('</mark>');
}

export function toArticleHitDto(
  row: ArticleSummaryRow | ArticleHitRow,
  url: string,
): ArticleHitDto {
  const dto: ArticleHitDto = toArticleSummaryDto(row, url);
  if ('snippet' in row) dto.snippet = snippetHtml(row.snippet);
  return dto;
}

export function toArticleDto(
  row: ArticleRow,
  translations: TranslationRow[],
  url: string,
): ArticleDto {
  return {
    ...toArticleSummaryDto(row, url),
    body: row.body,
    html: row.body_html,
    import_suggestion: row.import_suggestion,
    translations: translations.map((translation) => ({
      id: Number(translation.id),
      locale: translation.locale,
      title: translation.title,
      slug: translation.slug,
      status: translation.status,
    })),
  };
}

export class ArticleResponseDto extends EnvelopeDto {
  @ApiProperty({ type: ArticleDto }) data!: ArticleDto;
}

export class ArticleListDto extends PageMetaDto {
  @ApiProperty({
    type: [ArticleHitDto],
    description: 'Newest first; with `q`, by relevance with a `snippet`',
  })
  data!: ArticleHitDto[];
}

// Widget -----------------------------------------------------------------------------------------

export class WidgetKbSearchQueryDto {
  @ApiPropertyOptional({
    maxLength: 200,
    description: "Empty: suggested articles (the most viewed of the site's locale)",
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;

  @ApiPropertyOptional({
    enum: KB_LOCALES,
    description: "The visitor's language; default the help center's default locale",
  })
  @IsOptional()
  @IsIn(KB_LOCALES)
  locale?: string;
}

export class WidgetArticleHitDto {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: KB_LOCALES }) locale!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ type: String, nullable: true }) excerpt!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'HTML-escaped text with the matches in `<mark>`; null for suggestions',
  })
  snippet!: string | null;
  @ApiProperty({ description: 'Its public help-center address' }) url!: string;
}

export class WidgetKbSearchResponseDto extends EnvelopeDto {
  @ApiProperty({ type: [WidgetArticleHitDto], description: 'At most 10' })
  data!: WidgetArticleHitDto[];
  @ApiProperty({ description: 'True when these are suggestions (no `q`)' }) suggested!: boolean;
}

export class WidgetArticleDto {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: KB_LOCALES }) locale!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ type: String, nullable: true }) excerpt!: string | null;
  @ApiProperty({ description: 'Rendered on the server (safe to show as it is)' }) html!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) published_at!: string | null;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty() url!: string;
}

export class WidgetArticleResponseDto extends EnvelopeDto {
  @ApiProperty({ type: WidgetArticleDto }) data!: WidgetArticleDto;
}

export class KbFeedbackDto {
  @ApiProperty({ description: 'Was this helpful?' })
  @IsBoolean()
  helpful!: boolean;
}

export class KbFeedbackResultDto {
  @ApiProperty() helpful!: boolean;
}

export class KbFeedbackResponseDto extends EnvelopeDto {
  @ApiProperty({ type: KbFeedbackResultDto }) data!: KbFeedbackResultDto;
}
