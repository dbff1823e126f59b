import { Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import { SecretBoxService } from '../../common/crypto/secret-box.service';
import { type LoginCodeMailJob, QueueName } from '../../queue/queue-names';
import { type JobProcessor, QueueWorker } from '../../queue/queue-worker';
import { AccountLoginRepository } from './account-login.repository';
import { CODE_LIFETIME_MINUTES } from './login-codes';
import { LoginCodeMailer } from './login-code-mailer';

/** Mails login codes; a code used, replaced or expired before its turn is not sent. */
@Injectable()
@QueueWorker(QueueName.LoginCodeMail, { concurrency: 8 })
export class LoginCodeMailProcessor implements JobProcessor<LoginCodeMailJob> {
  constructor(
    private readonly repository: AccountLoginRepository,
    private readonly mailer: LoginCodeMailer,
    private readonly secrets: SecretBoxService,
  ) {}

  async process(job: Job<LoginCodeMailJob>): Promise<void> {
    if (!(await this.repository.codeUsable(job.data.organizationId, job.data.codeId))) return;
    await this.mailer.send({
      to: job.data.to,
      name: job.data.name,
      code: this.secrets.open(job.data.sealedCode),
      minutes: CODE_LIFETIME_MINUTES,
    });
  }
}
