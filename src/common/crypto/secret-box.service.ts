import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { type MasterKey, SecretBox } from './secret-box';
import { loadMasterKeys } from './secrets-key';
import { SealedValuesMaintenanceRepository } from './sealed-values-maintenance.repository';

/**
 * The service's SecretBox and the keys derived from its master key (see `secrets-key.ts`: never
 * from the database). On start, values sealed under the key a former release kept in the
 * database's `service_secrets` are re-sealed under the master key and that key is deleted.
 */
@Injectable()
export class SecretBoxService implements OnModuleInit {
  private readonly logger = new Logger('secrets');
  private box?: SecretBox;
  private previous: MasterKey[] = [];

  constructor(
    private readonly config: AppConfig,
    private readonly maintenance: SealedValuesMaintenanceRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    const { current, previous } = loadMasterKeys(this.config.env, this.config.dataDir);
    this.previous = previous;
    const legacy = await this.maintenance.legacyKeys();
    this.box = new SecretBox(current, previous, legacy);
    if (legacy.length > 0) {
      const count = await this.maintenance.resealAll(this.box, { forgetLegacy: true });
      // The old key stays in this process's memory only, for login codes queued before.
      this.logger.log({ msg: 'secrets moved out of the database', resealed: count });
    }
  }

  seal(plain: string): string {
    return this.ready().seal(plain);
  }

  open(sealed: string): string {
    return this.ready().open(sealed);
  }

  /** Re-seals every stored value under the current key (`secrets:rotate`); answers the count. */
  rotate(): Promise<number> {
    return this.maintenance.resealAll(this.ready());
  }

  /** The widget session signing keys: the current key's first, then the previous keys'. */
  widgetSessionKeys(): Buffer[] {
    return [this.ready().current, ...this.previous].map((key) => key.widgetSession);
  }

  private ready(): SecretBox {
    if (!this.box) throw new Error('SecretBoxService used before initialisation');
    return this.box;
  }
}
