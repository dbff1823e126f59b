import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentVisitor, Widget } from '../../common/auth/auth.decorators';
import type { VisitorPrincipal } from '../../common/auth/auth.types';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { LOOKUP_GATES as GATES } from '../data-lookup/lookup-gates';
import {
  LookupPageDto,
  LookupPageResponseDto,
  RecordSearchDto,
  RecordSearchResponseDto,
  RowActionDto,
  RowActionResponseDto,
} from './visitor-records.dto';
import { VisitorRecordsService } from './visitor-records.service';

/**
 * The widget side of the owner's records. The operation ids keep the names these routes had while
 * they lived in AccountLoginController, so the OpenAPI document and the typed clients are unchanged.
 */
@ApiTags('widget')
@Controller('api/widget')
export class VisitorRecordsController {
  constructor(private readonly records: VisitorRecordsService) {}

  @Post('filter-records/search')
  @HttpCode(200)
  @Widget({ visitor: true })
  @ApiOperation({
    operationId: 'AccountLogin_search',
    summary: "Search the logged-in visitor's records",
    description:
      "Only rows of the visitor's account; presets the site does not map are a 422. Not logged in: `success` false and the login-required reply; nothing found: the empty reply." +
      GATES,
  })
  @ApiOkResponse({ type: RecordSearchResponseDto })
  @ApiErrors(422, 503)
  search(@CurrentVisitor() visitor: VisitorPrincipal, @Body() body: RecordSearchDto) {
    return this.records.search(visitor, body.filters);
  }

  @Post('data-lookup/paginate')
  @HttpCode(200)
  @Widget({ visitor: true })
  @ApiOperation({
    operationId: 'AccountLogin_paginate',
    summary: "A later page of a keyword rule's answer",
    description:
      "In the visitor's open conversation (404 when not the visitor's, 409 once closed); an unknown rule is a 422." +
      GATES,
  })
  @ApiOkResponse({ type: LookupPageResponseDto })
  @ApiErrors(409, 422, 503)
  paginate(@CurrentVisitor() visitor: VisitorPrincipal, @Body() body: LookupPageDto) {
    return this.records.page(visitor, {
      conversationId: String(body.conversation_id),
      ruleId: body.rule_id,
      page: body.page,
      triggerMessage: body.trigger_message,
    });
  }

  @Post('data-lookup/row-action')
  @HttpCode(200)
  @Widget({ visitor: true })
  @ApiOperation({
    operationId: 'AccountLogin_rowAction',
    summary: "Run a rule's action on one of the visitor's rows",
    description:
      "The row is read again by its row key among the account's rows (404 when it is not one of them); the reply's `{{column}}` placeholders take its values, HTML-escaped." +
      GATES,
  })
  @ApiOkResponse({ type: RowActionResponseDto })
  @ApiErrors(409, 422, 503)
  rowAction(@CurrentVisitor() visitor: VisitorPrincipal, @Body() body: RowActionDto) {
    return this.records.rowAction(visitor, {
      conversationId: String(body.conversation_id),
      ruleId: body.rule_id,
      actionId: body.action_id,
      row: body.row,
    });
  }
}
