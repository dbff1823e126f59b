import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentVisitor, CurrentWidget, Widget } from '../../common/auth/auth.decorators';
import type { VisitorPrincipal, WidgetPrincipal } from '../../common/auth/auth.types';
import { ResponseMessage } from '../../common/http/response-message.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import {
  AvailabilityRequestDto,
  AvailabilityResponseDto,
  BookAppointmentDto,
  BookingResponseDto,
  toSlotDto,
  toWidgetAppointment,
} from './appointments.dto';
import { BookingService } from './booking.service';

@ApiTags('widget: appointments')
@Controller('api/widget/appointments')
export class WidgetAppointmentsController {
  constructor(private readonly booking: BookingService) {}

  @Post('availability')
  @HttpCode(200)
  @Widget()
  @ApiOperation({
    summary: "The appointment slots of a date in the site's time zone",
    description:
      'Slots every `slot_interval_minutes` inside working hours, each `duration_minutes` long, with the offset of the site zone; none within `min_notice_hours` or beyond `advance_days`. Booked slots (and those whose time or buffer would overlap a booking) are `booked`. 403 when the plan has no appointments or the site has them disabled.',
  })
  @ApiOkResponse({ type: AvailabilityResponseDto })
  @ApiErrors(422)
  async availability(
    @CurrentWidget() widget: WidgetPrincipal,
    @Body() body: AvailabilityRequestDto,
  ) {
    const { timezone, slots, lastDate, workingWeekdays } = await this.booking.availability(
      widget,
      body.date,
    );
    return {
      date: body.date,
      timezone,
      last_date: lastDate,
      working_weekdays: workingWeekdays,
      slots: slots.map(toSlotDto),
    };
  }

  @Post('book')
  @Widget({ visitor: true })
  @ResponseMessage('Appointment booked.')
  @ApiOperation({
    summary: 'Book an available slot',
    description:
      '`scheduled_at` must be the start of an available slot, else 409 (also when another booking took it first). A given conversation of the visitor gets a system message announcing the booking. 403 when the plan has no appointments or the site has them disabled. 429 past BOOKINGS_PER_ADDRESS_PER_HOUR from one client address, BOOKINGS_PER_SITE_PER_HOUR for the site, or BOOKINGS_UNHANDLED_PER_SITE_MAX upcoming visitor bookings no agent has handled.',
  })
  @ApiCreatedResponse({ type: BookingResponseDto })
  @ApiErrors(409, 422, 429)
  async book(
    @CurrentVisitor() visitor: VisitorPrincipal,
    @Body() body: BookAppointmentDto,
    @Req() request: Request,
  ) {
    const { appointment, timezone } = await this.booking.book(
      visitor,
      {
        scheduledAt: body.scheduled_at,
        visitorName: body.visitor_name,
        visitorEmail: body.visitor_email,
        visitorPhone: body.visitor_phone,
        conversationId:
          body.conversation_id === undefined ? undefined : String(body.conversation_id),
        buttonLabel: body.button_label,
        botTemplateId: body.bot_template_id,
      },
      request.ip ?? 'unknown',
    );
    return { appointment: toWidgetAppointment(appointment, timezone) };
  }
}
