import type { Token } from '../di-token.js';
import { ACTIVITY_READ_MODEL, type ActivityReadModel } from './activity-read-model.port.js';
import { ATTEMPT_LIMITS, type AttemptLimits } from './attempt-limits.port.js';
import { CAPABILITY_NOTICES, type CapabilityNotices } from './capability-notices.port.js';
import { CLOCK, type Clock } from './clock.port.js';
import { OPERATOR_KEYS, type OperatorKeys } from './operator-keys.port.js';
import { REAUTHENTICATIONS, type Reauthentications } from './reauthentications.port.js';
import { AUTHENTICATORS, type Authenticators } from './authenticators.port.js';
import { PENDING_CHANGES, type PendingChanges } from './pending-changes.port.js';
import { MFA, MFA_STATUS, type Mfa, type MfaStatusReadModel } from './mfa.port.js';
import { EVENT_LOG, type EventLog } from './event-log.port.js';
import { HASHING_ADMISSION, type HashingAdmission } from './hashing-admission.port.js';
import { ID_GENERATOR, type IdGenerator } from './id-generator.port.js';
import { MAIL_SENDER, type MailSender } from './mail-sender.port.js';
import { ONE_TIME_TOKENS, type OneTimeTokens } from './one-time-tokens.port.js';
import { OUTBOX, type Outbox } from './outbox.port.js';
import { PASSWORD_BLOCKLIST, type PasswordBlocklist } from './password-blocklist.port.js';
import { PASSWORD_HASHER, type PasswordHasher } from './password-hasher.port.js';
import { PUBLIC_KEY_SET, type PublicKeySet } from './public-key-set.port.js';
import { REFRESH_TOKENS, type RefreshTokens } from './refresh-tokens.port.js';
import { SESSION_READ_MODEL, type SessionReadModel } from './session-read-model.port.js';
import { SESSION_REPOSITORY, type SessionRepository } from './session-repository.port.js';
import { STORE_HEALTH, type StoreHealth } from './store-health.port.js';
import { TOKEN_ISSUER, type TokenIssuer } from './token-issuer.port.js';
import { TOKEN_VERIFIER, type TokenVerifier } from './token-verifier.port.js';
import { USER_READ_MODEL, type UserReadModel } from './user-read-model.port.js';
import { USER_REPOSITORY, type UserRepository } from './user-repository.port.js';

/**
 * Every driven port, by the name use cases know it by. Each handler takes `Pick<Ports, ...>` of what it needs,
 * so the registry (`buildUseCases`) and the test world pass one object and never change when a handler does.
 */
export interface Ports {
  readonly users: UserRepository;
  readonly events: EventLog;
  readonly sessions: SessionRepository;
  /** The account's second factor as the core's rules reach it (a sign-in's challenge, step-up, a holder's code). */
  readonly mfa: Mfa;
  /** What `/auth/me` and the admin view show of the account's second factor (nothing without a capability that provides one). */
  readonly mfaStatus: MfaStatusReadModel;
  readonly operatorKeys: OperatorKeys;
  readonly reauthentications: Reauthentications;
  /** An account's authenticators beyond its codes (passkeys), as a capability provides them (none without it). */
  readonly authenticators: Authenticators;
  /** What a new password ends on an account (a pending change of address), as a capability provides it (nothing without it). */
  readonly pendingChanges: PendingChanges;
  readonly outbox: Outbox;
  readonly limits: AttemptLimits;
  readonly mail: MailSender;
  /** The mail notices the capabilities declare for their events (none without them). */
  readonly notices: CapabilityNotices;
  readonly sessionViews: SessionReadModel;
  readonly userViews: UserReadModel;
  readonly activity: ActivityReadModel;
  readonly storeHealth: StoreHealth;
  readonly hasher: PasswordHasher;
  readonly admission: HashingAdmission;
  readonly blocklist: PasswordBlocklist;
  readonly tokens: TokenIssuer;
  readonly refreshTokens: RefreshTokens;
  readonly oneTimeTokens: OneTimeTokens;
  readonly verifier: TokenVerifier;
  readonly publicKeys: PublicKeySet;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/** The DI token of each port; typed so that the token of one port cannot stand for another. */
export const PORT_TOKENS: { readonly [K in keyof Ports]: Token<Ports[K]> } = {
  users: USER_REPOSITORY,
  events: EVENT_LOG,
  sessions: SESSION_REPOSITORY,
  mfa: MFA,
  mfaStatus: MFA_STATUS,
  operatorKeys: OPERATOR_KEYS,
  reauthentications: REAUTHENTICATIONS,
  authenticators: AUTHENTICATORS,
  pendingChanges: PENDING_CHANGES,
  outbox: OUTBOX,
  limits: ATTEMPT_LIMITS,
  mail: MAIL_SENDER,
  notices: CAPABILITY_NOTICES,
  sessionViews: SESSION_READ_MODEL,
  userViews: USER_READ_MODEL,
  activity: ACTIVITY_READ_MODEL,
  storeHealth: STORE_HEALTH,
  hasher: PASSWORD_HASHER,
  admission: HASHING_ADMISSION,
  blocklist: PASSWORD_BLOCKLIST,
  tokens: TOKEN_ISSUER,
  refreshTokens: REFRESH_TOKENS,
  oneTimeTokens: ONE_TIME_TOKENS,
  verifier: TOKEN_VERIFIER,
  publicKeys: PUBLIC_KEY_SET,
  clock: CLOCK,
  ids: ID_GENERATOR,
};
