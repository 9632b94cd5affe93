import { randomUUID } from 'node:crypto';
import type { Clock } from '../application/ports/clock.port.js';
import type { IdGenerator } from '../application/ports/id-generator.port.js';

export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}

export class RandomUuidGenerator implements IdGenerator {
  next(): string {
    return randomUUID();
  }
}
