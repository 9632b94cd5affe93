import type { FakeWebAuthnAnswer } from './fakes.js';
import { aRequestMetadata, aSignUpCommand } from './builders.js';
import { type WorldOptions, inMemoryWorld } from './in-memory-world.js';
import { verifiedSignUp } from './verified.js';

let credentials = 0;

/**
 * Ada signed up (her address proven) in an in-memory world whose WebAuthn port is the fake authenticator (FakeWebAuthn), with helpers
 * that run the ceremonies as a browser would: options from the service, an answer to their challenge.
 */
export async function withPasskeys(options: WorldOptions = {}) {
  const world = await inMemoryWorld(options);
  const metadata = aRequestMetadata();
  const { signedUp, principal, password } = await verifiedSignUp(world, aSignUpCommand());
  const challengeOf = (ceremony: Readonly<Record<string, unknown>>) => String(ceremony['challenge']);
  /** Registers a new passkey for `who` (Ada by default; `currentPassword`: theirs): options, then the authenticator's answer. */
  const register = async (overrides: Partial<FakeWebAuthnAnswer> = {}, who = principal, name?: string, currentPassword = password) => {
    const challenge = challengeOf(await world.passkeyRegistrationOptions.execute({ principal: who, currentPassword, metadata }));
    const response: FakeWebAuthnAnswer = { id: `credential-${++credentials}`, challenge, ...overrides };
    return world.addPasskey.execute({ principal: who, response, name, metadata });
  };
  /** An assertion by `id` to fresh sign-in options (or the step-up options of `who`). */
  const assertion = async (id: string, overrides: Partial<FakeWebAuthnAnswer> = {}, who: typeof principal | null = null): Promise<FakeWebAuthnAnswer> => {
    const challenge = challengeOf(await world.passkeyAuthenticationOptions.execute({ principal: who }));
    return { id, challenge, ...overrides };
  };
  return { world, metadata, principal, userId: signedUp.user.id, register, assertion };
}
