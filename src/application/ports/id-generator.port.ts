import { token } from '../di-token.js';

export interface IdGenerator {
  /** Returns a new globally unique, unguessable identifier (a UUID). Never repeats. */
  next(): string;
}

export const ID_GENERATOR = token<IdGenerator>('IdGenerator');
