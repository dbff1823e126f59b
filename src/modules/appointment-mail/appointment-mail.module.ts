import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { AppointmentsModule } from '../appointments/appointments.module';
import { MailModule } from '../mail/mail.module';
import { OutboxModule } from '../outbox/outbox.module';
import { AppointmentMailService } from './appointment-mail.service';

/** Appointments by email: confirmations and cancellations with their `.ics` invites. */
@Module({
  imports: [AgentsModule, AppointmentsModule, MailModule, OutboxModule],
  providers: [AppointmentMailService],
})
export class AppointmentMailModule {}
