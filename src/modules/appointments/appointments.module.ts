import { Module } from '@nestjs/common';
import { RealtimeModule } from '../realtime/realtime.module';
import { MessagesModule } from '../messages/messages.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { OutboxModule } from '../outbox/outbox.module';
import { AgentAppointmentsController } from './agent-appointments.controller';
import { AppointmentSettingsService } from './appointment-settings.service';
import { AppointmentsClock } from './appointments.clock';
import { AppointmentsRepository } from './appointments.repository';
import { AppointmentsService } from './appointments.service';
import { BookingService } from './booking.service';
import { WidgetAppointmentsController } from './widget-appointments.controller';

/** Booking rules per site, availability and booking from the widget, the agents' list. */
@Module({
  imports: [MessagesModule, OrganizationsModule, OutboxModule, RealtimeModule],
  controllers: [WidgetAppointmentsController, AgentAppointmentsController],
  providers: [
    AppointmentsRepository,
    AppointmentSettingsService,
    AppointmentsService,
    BookingService,
    AppointmentsClock,
  ],
  exports: [AppointmentsService],
})
export class AppointmentsModule {}
