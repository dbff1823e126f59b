import { Controller, Get, Headers, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../common/auth/auth.decorators';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { MetricsService } from './metrics.service';

@ApiTags('health')
@Public()
@Controller()
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get('metrics')
  @ApiBearerAuth('metrics_token')
  @ApiOperation({
    summary: 'Prometheus metrics of this instance',
    description:
      'The Prometheus text format. Answers only when METRICS_TOKEN is set and sent as ' +
      '`Authorization: Bearer <METRICS_TOKEN>`; otherwise 404, as for any unknown address.',
  })
  @ApiOkResponse({
    description: 'Prometheus text exposition format 0.0.4',
    content: { 'text/plain': { schema: { type: 'string' } } },
  })
  @ApiErrors(404)
  async scrape(
    @Headers('authorization') authorization: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const { contentType, body } = await this.metrics.scrape(authorization);
    response.status(200).type(contentType).send(body);
  }
}
