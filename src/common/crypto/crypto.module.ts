import { Global, Module } from '@nestjs/common';
import { SealedValuesMaintenanceRepository } from './sealed-values-maintenance.repository';
import { SecretBoxService } from './secret-box.service';

@Global()
@Module({
  providers: [SecretBoxService, SealedValuesMaintenanceRepository],
  exports: [SecretBoxService],
})
export class CryptoModule {}
