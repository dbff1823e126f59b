import { Module } from '@nestjs/common';
import { AssignmentRepository } from './assignment.repository';
import { AssignmentService } from './assignment.service';

@Module({
  providers: [AssignmentRepository, AssignmentService],
  exports: [AssignmentService],
})
export class AssignmentModule {}
