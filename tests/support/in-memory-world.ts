import type { Ports } from '../../src/application/ports/ports.js';
import type { SignInThrottleSettings } from '../../src/application/policies/sign-in-throttle.js';
import { buildUseCases } from '../../src/application/registry.js';
import { InMemoryEventLog } from '../../src/infrastructure/memory/in-memory-event-log.js';
import { InMemoryOutbox } from '../../src/infrastructure/memory/in-memory-outbox.js';
import { InMemorySessionRepository } from '../../src/infrastructure/memory/in-memory-session.repository.js';
import { HmacOneTimeTokens } from '../../src/infrastructure/security/hmac-one-time-tokens.js';
import type { MailSettings } from '../../src/application/policies/mail.js';
import { InMemoryStoreHealth } from '../../src/infrastructure/memory/in-memory-store-health.js';
import { InMemoryStore } from '../../src/infrastructure/memory/in-memory-store.js';
import { InMemoryUserReadModel } from '../../src/infrastructure/memory/in-memory-user-read-model.js';
import { InMemoryUserRepository } from '../../src/infrastructure/memory/in-memory-user.repository.js';
import { EventLogActivityReadModel } from '../../src/infrastructure/read-model/event-log-activity-read-model.js';
import { RepositorySessionReadModel } from '../../src/infrastructure/read-model/repository-session-read-model.js';
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
  readonly sessions?: SessionSettings;
  readonly mail?: Partial<MailSettings>;
  /** Ports to use instead of the in-memory ones (e.g. a store that is down). */
  readonly replace?: Partial<Ports>;
}

/**
 * The application wired to working in-memory adapters, no I/O, deterministic time and ids, built by the same
 * registry as the service (`buildUseCases`): a new use case appears here without any edit.
 */
export function inMemoryWorld(options: WorldOptions = {}) {
  const store = new InMemoryStore();
  const events = new InMemoryEventLog(store);
  const tokens = new FakeTokenIssuer();
  const sessions = new InMemorySessionRepository(store);
  const adapters = {
    users: new InMemoryUserRepository(store),
    events,
    sessions,
    outbox: new InMemoryOutbox(store),
    mail: new MailboxSender(),
    sessionViews: new RepositorySessionReadModel(sessions),
    userViews: new InMemoryUserReadModel(store),
    activity: new EventLogActivityReadModel(events),
    storeHealth: new InMemoryStoreHealth(store),
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
  const ports: Ports = { ...adapters, ...options.replace };
  const useCases = buildUseCases(ports, {
    signInThrottle: options.signInThrottle ?? { maxFailures: 5, windowSeconds: 900 },
    sessions: options.sessions ?? { lifetimes: { idleSeconds: 14 * 86_400, maxSeconds: 30 * 86_400 }, reuseGraceSeconds: 10 },
    mail: {
      resetTtlSeconds: 1800,
      verificationTtlSeconds: 86_400,
      publicAppUrl: 'https://app.example',
      requireVerifiedEmail: false,
      resetPerAddress: { max: 3, windowSeconds: 3600 },
      ...options.mail,
    },
    delivery: { leaseMs: 30_000, batchSize: 20, baseBackoffMs: 1_000, maxBackoffMs: 300_000 },
  });
  return { store, ...adapters, ports, useCases, ...useCases };
}

export type InMemoryWorld = ReturnType<typeof inMemoryWorld>;
