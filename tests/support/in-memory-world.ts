import { SignInHandler } from '../../src/application/commands/sign-in.handler.js';
import { type SignInThrottleSettings, SignInThrottle } from '../../src/application/commands/sign-in-throttle.js';
import { SignUpHandler } from '../../src/application/commands/sign-up.handler.js';
import { InMemoryEventLog } from '../../src/infrastructure/memory/in-memory-event-log.js';
import { InMemoryStore } from '../../src/infrastructure/memory/in-memory-store.js';
import { InMemoryUserRepository } from '../../src/infrastructure/memory/in-memory-user.repository.js';
import { FakePasswordBlocklist, FakePasswordHasher, FakeTokenIssuer, ManualClock, SequentialIds } from './fakes.js';

/** The application wired to working in-memory adapters: no I/O, deterministic time and ids. */
export function inMemoryWorld(throttleSettings: SignInThrottleSettings = { maxFailures: 5, windowSeconds: 900 }) {
  const store = new InMemoryStore();
  const users = new InMemoryUserRepository(store);
  const events = new InMemoryEventLog(store);
  const hasher = new FakePasswordHasher();
  const tokens = new FakeTokenIssuer();
  const clock = new ManualClock();
  const ids = new SequentialIds();
  const blocklist = new FakePasswordBlocklist(['password123', 'iloveyou2']);
  return {
    store,
    users,
    events,
    hasher,
    tokens,
    clock,
    ids,
    signUp: new SignUpHandler(users, hasher, tokens, clock, ids, blocklist),
    signIn: new SignInHandler(users, events, hasher, tokens, clock, ids, new SignInThrottle(events, clock, throttleSettings)),
  };
}
