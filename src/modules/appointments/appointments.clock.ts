import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';

/**
 * The time availability is computed against. `APPOINTMENTS_NOW` (an ISO 8601 instant, validated
 * with the rest of the environment) freezes it for end-to-end tests that need a date the real
 * clock cannot reach, such as a daylight-saving day more than `advance_days` ahead; unset
 * (always, outside tests) it is the real time.
 */
@Injectable()
export class AppointmentsClock {
  private readonly frozen?: number;

  constructor(config: AppConfig) {
    const value = config.env.APPOINTMENTS_NOW;
    if (!value) return;
    this.frozen = Date.parse(value);
    new Logger(AppointmentsClock.name).warn(
      `APPOINTMENTS_NOW is set: appointment availability is computed as of ${value} (tests only)`,
    );
  }

  now(): Date {
    return this.frozen === undefined ? new Date() : new Date(this.frozen);
  }
}
