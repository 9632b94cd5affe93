import type { MfaSettings } from '../../src/application/policies/second-factor.js';
import type { Ports } from '../../src/application/ports/ports.js';
import { FakeIdentityProviders } from './fake-providers.js';
import { KeyedFactorSecrets } from '../../src/infrastructure/second-factor/keyed-factor-secrets.js';
import { OtpAuthTotp } from '../../src/infrastructure/second-factor/otpauth-totp.js';
import type { SignInThrottleSettings } from '../../src/application/policies/sign-in-throttle.js';
import type { Policies } from '../../src/application/registry.js';
import { loadConfig } from '../../src/infrastructure/config/config.js';
import { bindingOf, compose } from '../../src/infrastructure/container/composition.js';
import { WEBHOOK_SENDER } from '../../src/application/webhooks/ports/webhooks.port.js';
import { WEBHOOK_SETTINGS } from '../../src/application/webhooks/webhook-use-cases.js';
import { IDENTITY_PROVIDERS } from '../../src/application/social-sign-in/ports/identity-providers.port.js';
import { IDENTITY_REPOSITORY } from '../../src/application/social-sign-in/ports/identity-repository.port.js';
import { OAUTH_FLOW_REPOSITORY } from '../../src/application/social-sign-in/ports/oauth-flow-repository.port.js';
import { PASSKEY_REPOSITORY } from '../../src/application/passkeys/ports/passkey-repository.port.js';
import { WEBAUTHN } from '../../src/application/passkeys/ports/webauthn.port.js';
import { EMAIL_CHANGE_REPOSITORY } from '../../src/application/email-change/ports/email-change-repository.port.js';
import { SECOND_FACTOR_REPOSITORY } from '../../src/application/second-factor/ports/second-factor-repository.port.js';
import { TOTP } from '../../src/application/second-factor/ports/totp.port.js';
import { FACTOR_SECRETS } from '../../src/application/second-factor/ports/factor-secrets.port.js';
import { CAPABILITIES } from '../../src/capabilities/index.js';
import { pino } from 'pino';
import { HmacOneTimeTokens } from '../../src/infrastructure/security/hmac-one-time-tokens.js';
import type { MailSettings } from '../../src/application/policies/mail.js';
import { EVENTS, toRecordedEvent } from '../../src/infrastructure/storage/event-tables.js';
import type { Store } from '../../src/infrastructure/storage/store.js';
import type { CapabilityRecordedEvent, RecordedEvent } from '../../src/application/ports/event-log.port.js';
import type { DomainEvent } from '../../src/domain/domain-event.js';
import { memoryStorageOver } from '../../src/infrastructure/memory/memory-storage.js';
import { schemaOf } from '../../src/infrastructure/storage/ownership.js';
import { InMemoryTables } from '../../src/infrastructure/memory/in-memory-tables.js';
import type { PersonalDataKeys } from '../../src/infrastructure/security/personal-data-keys.js';
import { EventLogActivityReadModel } from '../../src/infrastructure/read-model/event-log-activity-read-model.js';
import { HmacRefreshTokens } from '../../src/infrastructure/security/hmac-refresh-tokens.js';
import type { SessionSettings } from '../../src/application/policies/sessions.js';
import {
  FakePasswordBlocklist,
  FakePasswordHasher,
  FakeTokenIssuer,
  FakeTokenVerifier,
  FakeWebAuthn,
  MailboxSender,
  RecordingWebhookSender,
  ManualClock,
  OpenAdmission,
  SequentialIds,
} from './fakes.js';


/** The core's extension points the capabilities provide (their manifests bind them), and the second factor's rules (MFA, over the ports below): the world fakes none of them. */
type FromCapabilities = 'operatorKeys' | 'reauthentications' | 'authenticators' | 'pendingChanges' | 'notices' | 'mfa' | 'mfaStatus';
export interface WorldOptions {
  readonly signInThrottle?: SignInThrottleSettings;
  readonly sessions?: Partial<SessionSettings>;
  readonly mail?: Partial<MailSettings>;
  readonly mfa?: Partial<MfaSettings>;
  /** Ports to use instead of the in-memory ones (e.g. a store that is down). */
  readonly replace?: Partial<Ports>;
  /** The store the storage ports go through, made from the in-memory one (e.g. one whose calls a scheduler orders). */
  readonly store?: (tables: Store) => Store;
  /** Ports made from the in-memory ones (e.g. one that counts the writes made through it). */
  readonly wrap?: (ports: Omit<Ports, FromCapabilities>) => Partial<Ports>;
  /** Seal personal data at rest under these keys, as the service does (the world keeps it in clear otherwise, to look into). */
  readonly keys?: PersonalDataKeys;
}

/** The session settings of the world unless a test says otherwise: the service's defaults. */
export const DEFAULT_SESSION_SETTINGS: SessionSettings = {
  lifetimes: { idleSeconds: 14 * 86_400, maxSeconds: 30 * 86_400 },
  reuseGraceSeconds: 10,
  passwordChangeMaxFailures: 5,
  maxPerAccount: 50,
};

/**
 * The application wired to working in-memory adapters, no I/O, deterministic time and ids, composed by the same
 * `compose` as the service (STORAGE=memory, the fakes as port overrides): a new use case or port appears here without
 * any edit.
 */
export async function inMemoryWorld(options: WorldOptions = {}) {
  const tables = new InMemoryTables();
  const storage = memoryStorageOver(tables, options.store?.(tables) ?? tables, options.keys, schemaOf(CAPABILITIES));
  /** The event log as the test reads it: every event, in append order. */
  const store = {
    /** Every event as a capability's (social sign-in's IdentityLinked...): of a type the core's union does not hold. */
    get capabilityEvents(): CapabilityRecordedEvent<DomainEvent<string, Record<string, unknown>>>[] {
      return store.events;
    },
    get events(): RecordedEvent[] {
      return tables.rowsOf(EVENTS).sort((a, b) => (a.value.seq < b.value.seq ? -1 : 1)).map((stored) => toRecordedEvent(stored.value));
    },
  };
  const { close: _close, store: _store, pruner: _pruner, sizes: _sizes, ...storagePorts } = storage;
  const tokens = new FakeTokenIssuer();
  const adapters = {
    ...storagePorts,
    mail: new MailboxSender(),
    activity: new EventLogActivityReadModel(storage.events),
    hasher: new FakePasswordHasher(),
    admission: new OpenAdmission(),
    blocklist: new FakePasswordBlocklist(['password123', 'iloveyou2']),
    tokens,
    refreshTokens: new HmacRefreshTokens(Buffer.alloc(32, 7)),
    oneTimeTokens: new HmacOneTimeTokens(Buffer.alloc(32, 9)),
    verifier: new FakeTokenVerifier(tokens),
    publicKeys: { publicKeys: () => [] },
    clock: new ManualClock(),
    ids: new SequentialIds(),
  } satisfies Omit<Ports, FromCapabilities>;
  const policies: Policies = {
    signInThrottle: options.signInThrottle ?? { maxFailures: 5, windowSeconds: 900 },
    sessions: { ...DEFAULT_SESSION_SETTINGS, ...options.sessions },
    mail: {
      resetTtlSeconds: 1800,
      verificationTtlSeconds: 86_400,
      publicAppUrl: 'https://app.example',
      requireVerifiedEmail: false,
      resetPerAddress: { max: 3, windowSeconds: 3600 },
      verificationPerAddress: { max: 3, windowSeconds: 3600 },
      ...options.mail,
    },
    mfa: { challengeSeconds: 300, stepUpSeconds: 300, ...options.mfa },
    delivery: { leaseMs: 30_000, batchSize: 20, baseBackoffMs: 1_000, maxBackoffMs: 300_000, maxAttempts: 8, sendConcurrency: 8 },
  };
  const config = loadConfig({ NODE_ENV: 'test', STORAGE: 'memory', LOG_LEVEL: 'silent', OAUTH_REDIRECT_URLS: 'https://app.example/signed-in,com.example.app:/done' }, CAPABILITIES);
  const providers = new FakeIdentityProviders();
  const webhookSender = new RecordingWebhookSender();
  const webauthn = new FakeWebAuthn();
  const totp = new OtpAuthTotp('Account service');
  const factorSecrets = new KeyedFactorSecrets(Buffer.alloc(32, 11));
  const webhookSettings = { receivers: [{ id: 'hooks', url: 'https://hooks.example/in' }], maxAttempts: 3, baseBackoffMs: 1_000, maxBackoffMs: 60_000, leaseMs: 60_000, sendTimeoutMs: 5_000, batchSize: 20, settleMs: 0 };
  const composition = await compose(config, pino({ level: 'silent' }), {
    storage,
    ports: { ...adapters, ...options.replace, ...options.wrap?.(adapters) },
    bindings: [bindingOf(IDENTITY_PROVIDERS, providers), bindingOf(WEBAUTHN, webauthn), bindingOf(TOTP, totp), bindingOf(FACTOR_SECRETS, factorSecrets), bindingOf(WEBHOOK_SENDER, webhookSender), bindingOf(WEBHOOK_SETTINGS, webhookSettings)],
    policies,
  }, CAPABILITIES);
  const { ports, useCases, get } = composition;
  /** Social sign-in's own ports (its manifest binds them), as the tests read them. */
  const social = { providers, identities: get(IDENTITY_REPOSITORY), oauthFlows: get(OAUTH_FLOW_REPOSITORY) };
  /** The passkeys' own ports (their manifest binds them), the WebAuthn verifier a fake. */
  const passkeys = { passkeys: get(PASSKEY_REPOSITORY), webauthn };
  /** The change of address's own port (its manifest binds it). */
  const emailChanges = { emailChanges: get(EMAIL_CHANGE_REPOSITORY) };
  /** The second factor's own ports (its manifest binds them), the algorithm and the keyed secrets real ones. */
  const factors = { secondFactors: get(SECOND_FACTOR_REPOSITORY), totp, factorSecrets };
  const own = { ...social, ...passkeys, ...emailChanges, ...factors };
  return { store, tables, ...adapters, ...own, webhookSender, ports: { ...ports, ...own }, get, useCases, ...useCases };
}

export type InMemoryWorld = ReturnType<typeof inMemoryWorld>;
