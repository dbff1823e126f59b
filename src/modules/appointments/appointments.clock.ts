import { Injectable, Logger } from '@nestjs/common';

/**
 * The time availability is computed against. `APPOINTMENTS_NOW` (an ISO 8601 instant) freezes it
 * for end-to-end tests that need a date the real clock cannot reach, such as a daylight-saving
 * day more than `advance_days` ahead; unset (always, outside tests) it is the real time.
 */
@Injectable()
export class AppointmentsClock {
  private readonly frozen?: number;

  constructor() {
    const value = process.env.APPOINTMENTS_NOW?.trim();
    if (!value) return;
    const instant = Date.parse(value);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(instant)) {
      throw new Error(`APPOINTMENTS_NOW must be an ISO 8601 instant, got "${value}"`);
    }
    this.frozen = instant;
    new Logger(AppointmentsClock.name).warn(
      `APPOINTMENTS_NOW is set: appointment availability is computed as of ${value} (tests only)`,
    );
  }

  now(): Date {
    return this.frozen === undefined ? new Date() : new Date(this.frozen);
  }
}
