import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../../common/auth/auth.decorators';
import { RawResponse } from '../../common/http/response-message.decorator';
import { DocsService } from './docs.service';

/** The machine-readable descriptions of the API, served as they are (no envelope). */
@ApiExcludeController()
@Public()
@RawResponse()
@Controller('api/v1')
export class DocsController {
  constructor(private readonly docs: DocsService) {}

  @Get('openapi.json')
  openapi() {
    return this.docs.openapi();
  }

  @Get('postman.json')
  postman() {
    return this.docs.postman();
  }
}
