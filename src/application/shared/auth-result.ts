import type { UserEvent } from '../../domain/user.js';
import type { User } from '../../domain/user.js';
import type { RecordedEvent, RequestMetadata } from '../ports/event-log.port.js';
import type { IdGenerator } from '../ports/id-generator.port.js';

/** The account as a command that signs it in answers it: the public fields of the aggregate it just wrote. */
export interface AccountResource {
  readonly id: string;
  readonly name: string;
  readonly lastname: string;
  readonly email: string;
  readonly emailverified: boolean;
}

/** A signed-in answer: the account and the tokens of its new (or refreshed) session. */
export interface AuthResult {
  readonly user: AccountResource;
  readonly accessToken: string;
  readonly refreshToken: string;
  /** The access token's lifetime in seconds. */
  readonly expiresIn: number;
}

/**
 * A sign-in whose password was right, for an account with a second factor: no tokens yet, a challenge to answer
 * (POST /auth/sign-in/mfa) with one of `methods` within `expiresIn` seconds.
 */
export interface SecondFactorRequired {
  readonly mfaToken: string;
  readonly methods: readonly string[];
  readonly expiresIn: number;
}

/** What a sign-in by password ends in: signed in, or a second factor to prove first. */
export type SignInOutcome = AuthResult | SecondFactorRequired;

export const needsSecondFactor = (outcome: SignInOutcome): outcome is SecondFactorRequired => 'mfaToken' in outcome;

export const toAccountResource = (user: User): AccountResource => ({
  id: user.id,
  name: user.name.value,
  lastname: user.lastname.value,
  email: user.email.value,
  emailverified: user.emailVerified,
});

/** Gives each domain event its id and the metadata of the request that caused it. */
export const recordEvents = (events: readonly UserEvent[], ids: IdGenerator, metadata: RequestMetadata): RecordedEvent[] =>
  events.map((event) => ({ ...event, eventId: ids.next(), metadata }));

/** A session just opened, as a sign-in page outside the API holds it: whose, which, and how it was proved. */
export interface OpenedSession {
  readonly accountId: string;
  /** The session's id (its access token's `sid`): the one `GET /auth/sessions` lists. */
  readonly sessionId: string;
  /** How its holder proved who they are (the access token's `amr`). */
  readonly amr: readonly string[];
}

/** The session a signed-in answer opened, read from its access token (this service signed it a moment ago). */
export const openedSessionOf = (result: AuthResult): OpenedSession => {
  const claims = JSON.parse(Buffer.from(result.accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sid?: unknown; amr?: unknown };
  return {
    accountId: result.user.id,
    sessionId: typeof claims.sid === 'string' ? claims.sid : '',
    amr: Array.isArray(claims.amr) ? claims.amr.filter((method): method is string => typeof method === 'string') : [],
  };
};
