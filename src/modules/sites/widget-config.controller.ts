import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentWidget, Widget } from '../../common/auth/auth.decorators';
import type { WidgetPrincipal } from '../../common/auth/auth.types';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { SitesService } from './sites.service';
import { AgentsService } from '../agents/agents.service';
import { toWidgetConfig, WidgetConfigResponseDto, WidgetKeyQueryDto } from './widget-config.dto';

@ApiTags('widget')
@Controller('api/widget')
export class WidgetConfigController {
  constructor(
    private readonly sites: SitesService,
    private readonly agents: AgentsService,
  ) {}

  /** Lets the widget loader render the launcher before it opens a visitor session. */
  @Get('config')
  @Widget()
  @ApiOperation({
    summary: "The site's widget configuration (pre-chat form, account login, record filters)",
  })
  @ApiOkResponse({ type: WidgetConfigResponseDto })
  @ApiErrors(422)
  async config(@CurrentWidget() widget: WidgetPrincipal, @Query() _query: WidgetKeyQueryDto) {
    return {
      widget_config: toWidgetConfig(
        await this.sites.get(widget.organizationId, widget.siteId),
        await this.agents.anyOnline(widget.organizationId),
      ),
    };
  }
}
