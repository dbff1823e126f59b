import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Request } from 'express';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { EnvelopeDto } from '../openapi/envelope.dto';

export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 100;

/** A query-string integer: digits become a number, anything else stays and fails `IsInt`. */
export const QueryInt = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value,
  );

/** A query-string boolean: true/false/1/0; anything else stays and fails `IsBoolean`. */
export const QueryBoolean = () =>
  Transform(({ value }: { value: unknown }) => {
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    return value;
  });

export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE })
  @IsOptional()
  @QueryInt()
  @IsInt()
  @Min(1)
  @Max(MAX_PER_PAGE)
  per_page?: number;
}

export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

export function pageRequest(query: PageQueryDto): PageRequest {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? DEFAULT_PER_PAGE;
  return { page, perPage, offset: (page - 1) * perPage };
}

export class PageLinksDto {
  @ApiProperty({ type: String, nullable: true }) first!: string | null;
  @ApiProperty({ type: String, nullable: true }) last!: string | null;
  @ApiProperty({ type: String, nullable: true }) prev!: string | null;
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}

export class PageMetaDto extends EnvelopeDto {
  @ApiProperty({ example: 1 }) current_page!: number;
  @ApiProperty({ example: 50 }) per_page!: number;
  @ApiProperty({ example: 1 }) total!: number;
  @ApiProperty({ example: 1 }) last_page!: number;
  @ApiProperty({ type: PageLinksDto }) links!: PageLinksDto;
}

/**
 * The list shape of DESIGN section 3, with absolute links that keep every other query parameter.
 * `baseUrl` is PUBLIC_URL; `path` and `query` are the request's.
 */
export function paginate<T>(
  data: T[],
  total: number,
  request: PageRequest,
  baseUrl: string,
  link: { path: string; query: Record<string, unknown> },
) {
  const lastPage = Math.max(1, Math.ceil(total / request.perPage));
  const urlFor = (page: number) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(link.query)) {
      if (key !== 'page' && typeof value === 'string') params.set(key, value);
    }
    params.set('page', String(page));
    return `${baseUrl}${link.path}?${params.toString()}`;
  };
  return {
    data,
    current_page: request.page,
    per_page: request.perPage,
    total,
    last_page: lastPage,
    links: {
      first: urlFor(1),
      last: urlFor(lastPage),
      prev: request.page > 1 ? urlFor(Math.min(request.page - 1, lastPage)) : null,
      next: request.page < lastPage ? urlFor(request.page + 1) : null,
    },
  };
}

/** The request's path and query, from which `paginate` builds its links. */
export const ListLink = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const request = context.switchToHttp().getRequest<Request>();
  return { path: request.path, query: request.query };
});
