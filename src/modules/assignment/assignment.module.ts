import { Module } from '@nestjs/common';
import { RealtimeModule } from '../realtime/realtime.module';
import { OutboxModule } from '../outbox/outbox.module';
import { AssignmentRepository } from './assignment.repository';
import { AssignmentService } from './assignment.service';

@Module({
  imports: [OutboxModule, RealtimeModule],
  providers: [AssignmentRepository, AssignmentService],
  exports: [AssignmentService],
})
export class AssignmentModule {}
