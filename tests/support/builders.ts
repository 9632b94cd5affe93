import { type AuthResult, type SignInOutcome, needsSecondFactor } from '../../src/application/shared/auth-result.js';
import type { SignInCommand } from '../../src/application/use-cases/sign-in/sign-in.handler.js';
import type { SignUpCommand } from '../../src/application/use-cases/sign-up/sign-up.handler.js';
import type { RequestMetadata } from '../../src/application/ports/event-log.port.js';

export const aRequestMetadata = (overrides: Partial<RequestMetadata> = {}): RequestMetadata => ({
  requestId: 'req-1',
  clientIp: '203.0.113.7',
  userAgent: 'test-agent/1.0',
  ...overrides,
});

export const aSignUpCommand = (overrides: Partial<SignUpCommand> = {}): SignUpCommand => ({
  name: 'Ada',
  lastname: 'Lovelace',
  email: 'ada@example.com',
  password: 'analytical engine 1843',
  metadata: aRequestMetadata(),
  ...overrides,
});

export const aSignInCommand = (overrides: Partial<SignInCommand> = {}): SignInCommand => ({
  email: 'ada@example.com',
  password: 'analytical engine 1843',
  metadata: aRequestMetadata(),
  ...overrides,
});

export const aSignUpBody = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'Ada',
  lastname: 'Lovelace',
  email: 'ada@example.com',
  password: 'analytical engine 1843',
  ...overrides,
});

/** The completed sign-in a sign-in without a second factor ends in (fails the test on a second-factor challenge). */
export async function completedSignIn(outcome: Promise<SignInOutcome>): Promise<AuthResult> {
  const result = await outcome;
  if (needsSecondFactor(result)) throw new Error('expected a completed sign-in, got a second-factor challenge');
  return result;
}

/** What adding a credential carries besides the principal: the password Ada signed up with (aSignUpCommand), typed again. */
export const aHolderProof = <P>(principal: P, currentPassword: string = aSignUpCommand().password as string) => ({
  principal,
  currentPassword,
  metadata: aRequestMetadata(),
});
