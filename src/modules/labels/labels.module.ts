import { Module } from '@nestjs/common';
import { RealtimeModule } from '../realtime/realtime.module';
import { LabelsController } from './labels.controller';
import { LabelsRepository } from './labels.repository';
import { LabelsService } from './labels.service';

@Module({
  imports: [RealtimeModule],
  controllers: [LabelsController],
  providers: [LabelsRepository, LabelsService],
  exports: [LabelsService],
})
export class LabelsModule {}
