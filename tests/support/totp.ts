import { Secret, TOTP } from 'otpauth';
import { aRequestMetadata, aSignInCommand, aSignUpCommand } from './builders.js';
import { type WorldOptions, inMemoryWorld } from './in-memory-world.js';
import { verifiedSignUp } from './verified.js';

/** The code an authenticator app shows for `secret` at `at` (`steps` periods later). */
export const codeOf = (secret: string, at: Date, steps = 0): string => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at.getTime() + steps * 30_000 });

/** An in-memory world with Ada signed up, her address proven, and a TOTP enrolment started (not confirmed). */
export async function enrolled(options: WorldOptions = {}) {
  const world = await inMemoryWorld(options);
  const { signedUp, principal } = await verifiedSignUp(world, aSignUpCommand());
  const enrolment = await world.enrolTotp.execute({ principal, currentPassword: aSignUpCommand().password, metadata: aRequestMetadata() });
  return { world, principal, enrolment, userId: signedUp.user.id, signedUp };
}

/**
 * Ada with a confirmed TOTP factor (the clock then moved one step on, so the next code is new), her recovery codes,
 * and `challenge()`: a sign-in with her password, answered by a second-factor challenge.
 */
export async function withSecondFactor(options: WorldOptions = {}) {
  const { world, principal, enrolment, userId, signedUp } = await enrolled(options);
  const metadata = aRequestMetadata();
  const { recoveryCodes } = await world.confirmTotp.execute({ principal, code: codeOf(enrolment.secret, world.clock.now()), metadata });
  world.clock.advance(30_000);
  const challenge = async (): Promise<string> => {
    const outcome = await world.signIn.execute(aSignInCommand());
    if (!('mfaToken' in outcome)) throw new Error('expected a second-factor challenge');
    return outcome.mfaToken;
  };
  const code = (steps = 0) => codeOf(enrolment.secret, world.clock.now(), steps);
  /** A principal of a session opened with both factors just now (amr ["pwd","otp"]), and its sign-in's tokens; the code's step is then used. */
  const steppedUp = async () => {
    const signedIn = await world.signInMfa.execute({ mfaToken: await challenge(), code: code(), metadata });
    world.clock.advance(30_000);
    return { signedIn, principal: await world.authenticate.execute({ accessToken: signedIn.accessToken }) };
  };
  /** `passwordOnly`: the sign-up's session, from before the factor (amr ["pwd"]); `signedUp`: its tokens. */
  return { world, userId, secret: enrolment.secret, recoveryCodes, challenge, code, steppedUp, passwordOnly: principal, signedUp, metadata };
}
