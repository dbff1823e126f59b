import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ListLink, pageRequest, paginate } from '../../common/http/pagination';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { AppConfig } from '../../config/app-config';
import { SearchPageDto, SearchQueryDto } from './search.dto';
import { SearchService } from './search.service';

@ApiTags('agent: search')
@Controller('api/agent/search')
export class SearchController {
  constructor(
    private readonly search: SearchService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Agent()
  @ApiOperation({
    summary: "Search the organization's messages, visitors or tickets",
    description:
      'Messages by full text (PostgreSQL text search, every word as a prefix), visitors by name, ' +
      'email or phone, tickets by number or subject; newest first. Each hit links to its ' +
      'conversation, ticket or visitor.',
  })
  @ApiOkResponse({ type: SearchPageDto })
  @ApiErrors(422)
  async find(
    @CurrentAgent() agent: AgentPrincipal,
    @Query() query: SearchQueryDto,
    @ListLink() link: { path: string; query: Record<string, unknown> },
  ) {
    const page = pageRequest(query);
    const { rows, total } = await this.search.search(
      agent.organizationId,
      query.type ?? 'messages',
      query.q,
      page,
    );
    return paginate(rows, total, page, this.config.publicUrl, link);
  }
}
