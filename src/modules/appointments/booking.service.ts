import { Inject, Injectable } from '@nestjs/common';
import { DateTime } from 'luxon';
import { DataSource } from 'typeorm';
import type { VisitorPrincipal, WidgetPrincipal } from '../../common/auth/auth.types';
import { AppError } from '../../common/errors/app-error';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../../common/rate-limit/rate-limit.store';
import { rateLimited, tooManyAttempts } from '../../common/rate-limit/rate-limited';
import { AppConfig } from '../../config/app-config';
import { messagePush } from '../conversations/chat-pushes';
import { type MessageRecord, MessagesService } from '../messages/messages.service';
import { OutboxService } from '../outbox/outbox.service';
import { RealtimeService } from '../realtime/realtime.service';
import { appointmentEvents } from './appointment-events';
import { WEEKDAYS, type Weekday } from '../../common/time/working-hours';
import { AppointmentSettingsService, bookingRules } from './appointment-settings.service';
import { AppointmentsClock } from './appointments.clock';
import {
  type AppointmentRow,
  AppointmentsRepository,
  isOverlapRefused,
} from './appointments.repository';
import {
  dayWindow,
  daySlots,
  formatAppointment,
  lastBookableDate,
  localDate,
  type Slot,
} from './availability';

const HOUR_MS = 3_600_000;

/** What a visitor books: `scheduledAt` is ISO 8601 with an offset (checked by the DTO). */
export interface BookingInput {
  scheduledAt: string;
  visitorName?: string;
  visitorEmail?: string;
  visitorPhone?: string;
  conversationId?: string;
  buttonLabel?: string;
  botTemplateId?: number;
}

/**
 * The widget's side: availability and booking. A booking is checked against the slots as the
 * widget sees them, and the database's exclusion constraint settles any race between two
 * bookings of one time (the loser gets a 409).
 */
@Injectable()
export class BookingService {
  constructor(
    private readonly appointments: AppointmentsRepository,
    private readonly settings: AppointmentSettingsService,
    private readonly messages: MessagesService,
    private readonly realtime: RealtimeService,
    private readonly outbox: OutboxService,
    private readonly clock: AppointmentsClock,
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    @Inject(RATE_LIMIT_STORE) private readonly limits: RateLimitStore,
  ) {}

  /** The slots of a local date of the widget's site (`date` is a checked YYYY-MM-DD). */
  async availability(
    widget: WidgetPrincipal,
    date: string,
  ): Promise<{ timezone: string; slots: Slot[]; lastDate: string; workingWeekdays: Weekday[] }> {
    const { site, settings } = await this.settings.bookable(widget);
    const day = localDate(date, site.timezone);
    if (!day) {
      throw AppError.invalid(
        'date',
        'The date must be a real date in the form YYYY-MM-DD.',
        'date_invalid',
      );
    }
    const blocked = await this.appointments.blocked(
      this.dataSource.manager,
      widget.organizationId,
      site.id,
      dayWindow(day),
    );
    const rules = bookingRules(settings);
    const now = this.clock.now();
    return {
      timezone: site.timezone,
      slots: daySlots(day, rules, now, blocked),
      lastDate: lastBookableDate(rules, now, site.timezone),
      // A day picker offers only these weekdays (the others never have a slot).
      workingWeekdays: WEEKDAYS.filter((weekday) => rules.workingHours[weekday].length > 0),
    };
  }

  /**
   * Books the available slot starting at `scheduledAt` (409 for any other time, or when another
   * booking took it first) and, when a conversation of the visitor is named, tells it with a
   * system message in the same transaction.
   */
  async book(
    visitor: VisitorPrincipal,
    input: BookingInput,
    clientAddress: string,
  ): Promise<{ appointment: AppointmentRow; timezone: string }> {
    const organizationId = visitor.organizationId;
    const { site, settings } = await this.settings.bookable(visitor);
    // Visitors are free to make: one client address, and everyone together, book a bounded
    // number of slots an hour (issue 25), besides the visitor's own upcoming ones below.
    const env = this.config.env;
    await rateLimited(
      this.limits,
      `booking:address:${site.id}:${clientAddress}`,
      env.BOOKINGS_PER_ADDRESS_PER_HOUR,
      HOUR_MS,
    );
    await rateLimited(
      this.limits,
      `booking:site:${site.id}`,
      env.BOOKINGS_PER_SITE_PER_HOUR,
      HOUR_MS,
    );
    const conversation =
      input.conversationId === undefined
        ? undefined
        : await this.appointments.visitorConversation(
            organizationId,
            visitor.visitorId,
            input.conversationId,
          );
    if (input.conversationId !== undefined && !conversation) {
      throw AppError.invalid(
        'conversation_id',
        'The selected conversation_id is not a conversation of this visitor.',
        'appointment_conversation_unknown',
      );
    }
    const start = DateTime.fromISO(input.scheduledAt, { setZone: true }).setZone(site.timezone);
    const day = start.startOf('day');

    const result = await this.dataSource.transaction(async (manager) => {
      const max = this.config.env.BOOKINGS_PER_VISITOR_MAX;
      const upcoming = await this.appointments.lockUpcomingOfVisitor(
        manager,
        organizationId,
        visitor.visitorId,
        this.clock.now(),
      );
      if (upcoming >= max) {
        throw AppError.conflict(
          `This visitor already has ${max} upcoming appointments, the most allowed.`,
          'appointments_limit',
        );
      }
      const unhandled = await this.appointments.lockUnhandledOfSite(
        manager,
        organizationId,
        site.id,
        this.clock.now(),
      );
      if (unhandled >= env.BOOKINGS_UNHANDLED_PER_SITE_MAX) throw tooManyAttempts(HOUR_MS);
      const blocked = await this.appointments.blocked(
        manager,
        organizationId,
        site.id,
        dayWindow(day),
      );
      const slot = daySlots(day, bookingRules(settings), this.clock.now(), blocked).find(
        (candidate) => candidate.startsAt.toMillis() === start.toMillis(),
      );
      if (!slot?.available)
        throw AppError.conflict('The selected time is not an available slot.', 'slot_unavailable');
      let appointment: AppointmentRow;
      try {
        appointment = await this.appointments.insert(manager, organizationId, {
          siteId: site.id,
          visitorId: visitor.visitorId,
          conversationId: conversation?.id ?? null,
          scheduledAt: slot.startsAt.toJSDate(),
          endsAt: slot.endsAt.toJSDate(),
          blockedUntil: slot.endsAt.plus({ minutes: settings.buffer_minutes }).toJSDate(),
          visitorName: input.visitorName ?? null,
          visitorEmail: input.visitorEmail ?? null,
          visitorPhone: input.visitorPhone ?? null,
          buttonLabel: input.buttonLabel ?? null,
          botTemplateId: input.botTemplateId ?? null,
        });
      } catch (error) {
        if (isOverlapRefused(error)) {
          throw AppError.conflict(
            'The selected time has just been booked by someone else.',
            'slot_taken',
          );
        }
        throw error;
      }
      // The confirmation mail with its invite (DESIGN section 9) goes with the booking.
      await this.outbox.publish(manager, appointmentEvents.booked(organizationId, appointment));
      let message: MessageRecord | undefined;
      if (conversation) {
        message = await this.messages.create(manager, organizationId, {
          conversationId: conversation.id,
          senderType: 'system',
          senderId: null,
          body: `Appointment booked: ${formatAppointment(slot.startsAt, slot.endsAt)}.`,
        });
      }
      return { appointment, message };
    });

    // The agents' visitor panel shows it without a reload.
    this.realtime.toOrganization(organizationId, 'appointment.booked', {
      appointment_id: Number(result.appointment.id),
      visitor_id: Number(visitor.visitorId),
    });
    if (result.message && conversation) {
      const push = messagePush(result.message);
      this.realtime.toVisitor(visitor.visitorId, 'message.created', push);
      // Agents do not see a conversation before its first visitor message started it.
      if (conversation.started) {
        this.realtime.toOrganization(organizationId, 'message.created', push);
      }
    }
    return { appointment: result.appointment, timezone: site.timezone };
  }
}
