import { ServiceUnavailable } from '../errors.js';

/** What an attempt returns when its compare-and-swap lost to another write: nothing was written, decide again. */
export const CHANGED: unique symbol = Symbol('changed');

/** How many fresh loads a command gets before it gives up on a record that keeps changing under it. */
const MAX_ATTEMPTS = 8;

/** Seconds a client waits before retrying a command that lost every attempt. */
const RETRY_AFTER_SECONDS = 1;

/**
 * Runs `attempt` (load, decide, compare-and-swap save) until it commits or throws. Each retry starts from a fresh load,
 * so no decision is ever written over a state another request replaced meanwhile. Throws ServiceUnavailable
 * ('overloaded', a 503 with Retry-After) after MAX_ATTEMPTS lost races; nothing of the command was written then.
 */
export async function untilCommitted<T>(attempt: () => Promise<T | typeof CHANGED>): Promise<T> {
  for (let tries = 0; tries < MAX_ATTEMPTS; tries++) {
    const outcome = await attempt();
    if (outcome !== CHANGED) return outcome;
  }
  throw new ServiceUnavailable('overloaded', RETRY_AFTER_SECONDS);
}
