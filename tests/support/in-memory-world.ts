import type { Ports } from '../../src/application/ports/ports.js';
import type { SignInThrottleSettings } from '../../src/application/policies/sign-in-throttle.js';
import { buildUseCases } from '../../src/application/registry.js';
import { HmacOneTimeTokens } from '../../src/infrastructure/security/hmac-one-time-tokens.js';
import type { MailSettings } from '../../src/application/policies/mail.js';
import { InMemoryStore } from '../../src/infrastructure/memory/in-memory-store.js';
import { memoryStorageOver } from '../../src/infrastructure/memory/memory-storage.js';
import { InMemoryTables } from '../../src/infrastructure/memory/in-memory-tables.js';
import { EventLogActivityReadModel } from '../../src/infrastructure/read-model/event-log-activity-read-model.js';
import { HmacRefreshTokens } from '../../src/infrastructure/security/hmac-refresh-tokens.js';
import type { SessionSettings } from '../../src/application/policies/sessions.js';
import {
  FakePasswordBlocklist,
  FakePasswordHasher,
  FakeTokenIssuer,
  FakeTokenVerifier,
  MailboxSender,
  ManualClock,
  OpenAdmission,
  SequentialIds,
} from './fakes.js';

export interface WorldOptions {
  readonly signInThrottle?: SignInThrottleSettings;
  readonly sessions?: Partial<SessionSettings>;
  readonly mail?: Partial<MailSettings>;
  /** The store behind the in-memory adapters, when the test made it (to wrap an adapter over it in `replace`). */
  readonly store?: InMemoryStore;
  /** Ports to use instead of the in-memory ones (e.g. a store that is down). */
  readonly replace?: Partial<Ports>;
  /** Ports made from the in-memory ones (e.g. one that counts the writes made through it). */
  readonly wrap?: (ports: Ports) => Partial<Ports>;
}

/** The session settings of the world unless a test says otherwise: the service's defaults. */
export const DEFAULT_SESSION_SETTINGS: SessionSettings = {
  lifetimes: { idleSeconds: 14 * 86_400, maxSeconds: 30 * 86_400 },
  reuseGraceSeconds: 10,
  passwordChangeMaxFailures: 5,
  maxPerAccount: 50,
};

/**
 * The application wired to working in-memory adapters, no I/O, deterministic time and ids, built by the same
 * registry as the service (`buildUseCases`): a new use case appears here without any edit.
 */
export function inMemoryWorld(options: WorldOptions = {}) {
  const store = options.store ?? new InMemoryStore();
  const tables = new InMemoryTables(store);
  const { close: _close, store: _store, ...storage } = memoryStorageOver(store, tables);
  const tokens = new FakeTokenIssuer();
  const adapters = {
    ...storage,
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
  } satisfies Ports;
  const ports: Ports = { ...adapters, ...options.replace, ...options.wrap?.(adapters) };
  const useCases = buildUseCases(ports, {
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
    delivery: { leaseMs: 30_000, batchSize: 20, baseBackoffMs: 1_000, maxBackoffMs: 300_000, maxAttempts: 8, sendConcurrency: 8 },
  });
  return { store, tables, ...adapters, ports, useCases, ...useCases };
}

export type InMemoryWorld = ReturnType<typeof inMemoryWorld>;
