import { token } from '../di-token.js';

export interface Clock {
  /** Returns the current instant. Never throws. */
  now(): Date;
}

export const CLOCK = token<Clock>('Clock');
