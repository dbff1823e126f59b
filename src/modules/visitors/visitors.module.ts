import { Module } from '@nestjs/common';
import { PublicVisitorsController } from './public-visitors.controller';
import { VisitorsRepository } from './visitors.repository';
import { VisitorsService } from './visitors.service';

@Module({
  controllers: [PublicVisitorsController],
  providers: [VisitorsRepository, VisitorsService],
  exports: [VisitorsService],
})
export class VisitorsModule {}
