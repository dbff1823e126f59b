import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/auth/auth.decorators';
import { AppError } from '../../common/errors/app-error';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ReadyErrorDto } from '../../common/openapi/envelope.dto';
import { LiveDto, ReadyDto, StatusDto } from './health.dto';
import { HealthService } from './health.service';

@ApiTags('health')
@Public()
@Controller()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get('health/live')
  @ApiOperation({ summary: 'Liveness: the process answers HTTP' })
  @ApiOkResponse({ type: LiveDto })
  @ResponseMessage('Alive.')
  live(): Record<string, never> {
    return {};
  }

  @Get('health/ready')
  @ApiOperation({ summary: 'Readiness: the database and the queue answer' })
  @ApiOkResponse({ type: ReadyDto })
  @ApiResponse({
    status: 503,
    description: 'The database or the queue is down, or the instance is stopping',
    type: ReadyErrorDto,
  })
  @ResponseMessage('Ready.')
  async ready() {
    const checks = await this.health.checks();
    if (this.health.isStopping) {
      throw new AppError('service_unavailable', 'Not ready.', {
        reason: 'service_not_ready',
        extra: { checks: { ...checks, instance: 'stopping' } },
      });
    }
    if (checks.database === 'down' || checks.queue === 'down') {
      throw new AppError('service_unavailable', 'Not ready.', {
        reason: 'service_not_ready',
        extra: { checks },
      });
    }
    return { checks };
  }

  @Get('status.json')
  @ApiOperation({ summary: 'Version, uptime and the state of the database and the queue' })
  @ApiOkResponse({ type: StatusDto })
  status() {
    return this.health.status();
  }
}
