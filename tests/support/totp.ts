import { Secret, TOTP } from 'otpauth';
import { aSignUpCommand } from './builders.js';
import { inMemoryWorld } from './in-memory-world.js';

/** The code an authenticator app shows for `secret` at `at` (`steps` periods later). */
export const codeOf = (secret: string, at: Date, steps = 0): string => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at.getTime() + steps * 30_000 });

/** An in-memory world with Ada signed up and a TOTP enrolment started (not confirmed). */
export async function enrolled() {
  const world = await inMemoryWorld();
  const signedUp = await world.signUp.execute(aSignUpCommand());
  const principal = await world.authenticate.execute({ accessToken: signedUp.accessToken });
  const enrolment = await world.enrolTotp.execute({ principal });
  return { world, principal, enrolment, userId: signedUp.user.id };
}
