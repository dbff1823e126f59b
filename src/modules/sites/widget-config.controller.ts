import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsNotEmpty, IsString } from 'class-validator';
import { CurrentWidget, Widget } from '../../common/auth/auth.decorators';
import type { WidgetPrincipal } from '../../common/auth/auth.types';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { EnvelopeDto } from '../../common/openapi/envelope.dto';
import { SitesService } from './sites.service';
import { AgentsService } from '../agents/agents.service';
import { toWidgetConfig, WidgetConfigDto } from './widget-config';

class WidgetKeyQueryDto {
  @ApiProperty({ example: 'wk_0123456789abcdefABCDEF0123456789' })
  @IsString()
  @IsNotEmpty()
  widget_key!: string;
}

class WidgetConfigResponseDto extends EnvelopeDto {
  @ApiProperty({ type: WidgetConfigDto }) widget_config!: WidgetConfigDto;
}

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
