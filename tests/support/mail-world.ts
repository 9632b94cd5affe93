import type { OutgoingMail } from '../../src/application/ports/mail-sender.port.js';
import type { InvalidInput } from '../../src/domain/domain-error.js';
import { aSignUpCommand } from './builders.js';
import { type WorldOptions, inMemoryWorld } from './in-memory-world.js';
import { tokenInText } from './mail.js';

/** The token in a mail's link; throws when the mail is missing or has no link. */
export const tokenIn = (mail: OutgoingMail | undefined): string => tokenInText(mail?.text);

/** An in-memory world with Ada signed up (her verification mail queued, not yet delivered). */
export async function worldWithAda(options: WorldOptions = {}) {
  const world = await inMemoryWorld(options);
  const signedUp = await world.signUp.execute(aSignUpCommand());
  return { world, signedUp };
}

/** The issues of an InvalidInput rejection. */
export const issuesOf = (error: unknown) => (error as InvalidInput).issues;
