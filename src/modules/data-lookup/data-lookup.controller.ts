import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Agent, CurrentAgent } from '../../common/auth/auth.decorators';
import type { AgentPrincipal } from '../../common/auth/auth.types';
import { ApiIdParam, IdParam } from '../../common/http/id-param';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { DataLookupResponseDto, DataLookupTestResponseDto } from './data-lookup-view.dto';
import { PutDataLookupDto } from './data-lookup.dto';
import { DataLookupSettingsService } from './data-lookup-settings.service';

/** A site's data-lookup settings: owners and admins. */
@ApiTags('agent: sites')
@Agent({ role: 'admin' })
@Controller('api/agent/sites/:site/data-lookup')
export class DataLookupController {
  constructor(private readonly settings: DataLookupSettingsService) {}

  @Get()
  @ApiIdParam('site')
  @ApiOperation({
    summary: "Read a site's data-lookup settings (the URL's password masked)",
    description: '404 until settings are saved.',
  })
  @ApiOkResponse({ type: DataLookupResponseDto })
  @ApiErrors(404)
  async get(@CurrentAgent() agent: AgentPrincipal, @IdParam('site') siteId: string) {
    return { data: await this.settings.view(agent.organizationId, siteId) };
  }

  @Put()
  @ApiIdParam('site')
  @ApiOperation({
    summary: "Save a site's data-lookup settings; needs data lookup in the plan",
    description:
      "Connects to the owner's database and checks every table and column against its catalog first: a 422 names each identifier that is malformed or missing (e.g. `filter_record.columns.2`), or `connection.url` when the database cannot be read. The URL is stored encrypted; leave it out (or send it back masked) to keep the saved one.",
  })
  @ApiOkResponse({ type: DataLookupResponseDto })
  @ApiErrors(404, 422)
  @ResponseMessage('Data lookup settings saved.')
  async put(
    @CurrentAgent() agent: AgentPrincipal,
    @IdParam('site') siteId: string,
    @Body() body: PutDataLookupDto,
  ) {
    return { data: await this.settings.save(agent.organizationId, siteId, body) };
  }

  @Post('test')
  @HttpCode(200)
  @ApiIdParam('site')
  @ApiOperation({
    summary: 'Check the saved settings against the database as it is now',
    description: 'A 422 names what no longer fits, as when saving.',
  })
  @ApiOkResponse({ type: DataLookupTestResponseDto })
  @ApiErrors(404, 422)
  async test(@CurrentAgent() agent: AgentPrincipal, @IdParam('site') siteId: string) {
    return { data: await this.settings.test(agent.organizationId, siteId) };
  }
}
