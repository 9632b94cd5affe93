import { PasskeyRejected } from '../../src/application/errors.js';
import type { CeremonyOptions, NewCredential, StoredCredential, VerifiedAssertion, WebAuthn } from '../../src/application/passkeys/ports/webauthn.port.js';
import type { Clock } from '../../src/application/ports/clock.port.js';
import type { IdGenerator } from '../../src/application/ports/id-generator.port.js';
import type { PasswordBlocklist } from '../../src/application/ports/password-blocklist.port.js';
import type { PasswordHasher } from '../../src/application/ports/password-hasher.port.js';
import { InvalidToken, MailRefusedPermanently, MailRelayUnavailable, ServiceUnavailable } from '../../src/application/errors.js';
import type { EventLog, EventPage, PageRequest, RecordedEvent } from '../../src/application/ports/event-log.port.js';
import type { UserRepository } from '../../src/application/ports/user-repository.port.js';
import type { SessionPage, SessionRepository } from '../../src/application/ports/session-repository.port.js';
import type { Session } from '../../src/domain/session.js';
import type { User } from '../../src/domain/user.js';
import type { HashingAdmission } from '../../src/application/ports/hashing-admission.port.js';
import type { MailSender, OutgoingMail } from '../../src/application/ports/mail-sender.port.js';
import type { WebhookMessage, WebhookSender } from '../../src/application/webhooks/ports/webhooks.port.js';
import type { AccessTokenSubject, TokenIssuer } from '../../src/application/ports/token-issuer.port.js';
import type { TokenVerifier, VerifiedToken } from '../../src/application/ports/token-verifier.port.js';
import type { PlainPassword } from '../../src/domain/password.js';

/** A clock that stands still until told to move. */
export class ManualClock implements Clock {
  constructor(private current = new Date('2026-01-01T00:00:00.000Z')) {}

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** Deterministic ids: prefix-1, prefix-2, ... */
export class SequentialIds implements IdGenerator {
  private n = 0;

  constructor(private readonly prefix = 'id') {}

  next(): string {
    this.n += 1;
    return `${this.prefix}-${this.n}`;
  }
}

/**
 * Deterministic ids shaped like the service's UUIDs. A refresh token is `rt1.<session id>.<generation>.<mac>` and
 * only a UUID session id reads back, so with SequentialIds' `id-N` every refresh fails: a test of refresh needs these.
 */
export class UuidShapedIds implements IdGenerator {
  private n = 0;

  next(): string {
    this.n += 1;
    return `00000000-0000-4000-8000-${String(this.n).padStart(12, '0')}`;
  }
}

/**
 * A working, fast stand-in for argon2: reversible on purpose so tests can see what was hashed.
 * `version` plays the role of the argon2 parameters (a hash of another version needs a rehash).
 */
export class FakePasswordHasher implements PasswordHasher {
  dummyVerifications = 0;
  verifications = 0;

  constructor(public version = 1) {}

  async hash(password: PlainPassword): Promise<string> {
    return Promise.resolve(`fake$v${this.version}$${password.value}`);
  }

  async verify(hash: string, password: PlainPassword): Promise<boolean> {
    this.verifications += 1;
    return Promise.resolve(hash.replace(/^fake\$v\d+\$/, '') === password.value && hash.startsWith('fake$'));
  }

  async verifyDummy(): Promise<void> {
    this.dummyVerifications += 1;
    return Promise.resolve();
  }

  needsRehash(hash: string): boolean {
    return !hash.startsWith(`fake$v${this.version}$`);
  }
}

/** A call held by GatedPasswordHasher: `reached` resolves once the call waits; `release()` lets it go on. */
export interface HeldCall {
  readonly reached: Promise<void>;
  release(): void;
}

/**
 * A FakePasswordHasher whose next `verify` or `hash` can be held mid-call (where argon2 spends its ~30 ms), so a test
 * can make another command run exactly inside that window, with no timing involved.
 */
export class GatedPasswordHasher extends FakePasswordHasher {
  private readonly armed = new Map<'verify' | 'hash', { arrive: () => void; gate: Promise<void> }>();

  holdNext(method: 'verify' | 'hash'): HeldCall {
    let arrive = () => {};
    let release = () => {};
    const reached = new Promise<void>((resolve) => (arrive = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    this.armed.set(method, { arrive, gate });
    return { reached, release };
  }

  override async hash(password: PlainPassword): Promise<string> {
    await this.pass('hash');
    return super.hash(password);
  }

  override async verify(hash: string, password: PlainPassword): Promise<boolean> {
    await this.pass('verify');
    return super.verify(hash, password);
  }

  private async pass(method: 'verify' | 'hash'): Promise<void> {
    const held = this.armed.get(method);
    if (!held) return;
    this.armed.delete(method);
    held.arrive();
    await held.gate;
  }
}

/** Tokens that name their subject, so tests can tell whose token it is. */
export class FakeTokenIssuer implements TokenIssuer {
  readonly lifetimeSeconds = 900;
  private n = 0;
  readonly issued = new Map<string, AccessTokenSubject>();

  async issue(subject: AccessTokenSubject): Promise<string> {
    this.n += 1;
    const token = `token-${this.n}-for-${subject.userId}-in-${subject.sessionId}`;
    this.issued.set(token, subject);
    return Promise.resolve(token);
  }
}

/** Accepts exactly the tokens its issuer issued (and not revoked by the test), like a signature check would. */
export class FakeTokenVerifier implements TokenVerifier {
  constructor(private readonly issuer: FakeTokenIssuer) {}

  async verify(accessToken: string): Promise<VerifiedToken> {
    await Promise.resolve();
    const subject = this.issuer.issued.get(accessToken);
    if (!subject) throw new InvalidToken();
    return { userId: subject.userId, sessionId: subject.sessionId, tokenId: accessToken, expiresAt: new Date(8640000000000000), issuedAt: new Date(0), amr: subject.amr, authTime: subject.authTime };
  }
}

/** Admission that always has room: the unit tests do not exercise load shedding (the HTTP tests do). */
export class OpenAdmission implements HashingAdmission {
  admit(): void {}
}

/** A blocklist of the given words, compared case-insensitively like the real one. */
export class FakePasswordBlocklist implements PasswordBlocklist {
  private readonly words: ReadonlySet<string>;

  constructor(words: readonly string[]) {
    this.words = new Set(words.map((word) => word.toLowerCase()));
  }

  isCommon(password: PlainPassword): boolean {
    return this.words.has(password.value.toLowerCase());
  }
}

const down = () => Promise.reject(new ServiceUnavailable('store_unavailable', 5));

/** A store that is down: every read and write refuses, as a real adapter does when its store is unreachable. */
export class UnavailableUserRepository implements UserRepository {
  findByEmail = (): Promise<User | null> => down();
  findById = (): Promise<User | null> => down();
  add = (): Promise<void> => down();
  save = (): Promise<boolean> => down();
  erase = (): Promise<boolean> => down();
  unverifiedBefore = (): Promise<string[]> => down();
}

/** An event log that is down: every read and append refuses. */
export class UnavailableEventLog implements EventLog {
  append = (): Promise<void> => down();
  findByEmail = (): Promise<RecordedEvent[]> => down();
  findByAggregate = (): Promise<EventPage> => down();
}

/** A webhook receiver in memory: keeps every webhook sent to it, by URL; fails the next `failing` sends. */
export class RecordingWebhookSender implements WebhookSender {
  readonly sent: { readonly url: string; readonly message: WebhookMessage }[] = [];
  failing = 0;
  /** Runs at each send, before it answers (a test's slow receiver moves the clock). */
  onSend: () => void = () => undefined;

  async send(url: string, message: WebhookMessage): Promise<void> {
    await Promise.resolve();
    this.onSend();
    if (this.failing > 0) {
      this.failing -= 1;
      throw new Error('the receiver answered 500');
    }
    this.sent.push({ url, message });
  }
}

/** A mailbox: keeps every mail handed to it; refuses while `refusing` is above 0 (counting down), like an SMTP outage. */
export class MailboxSender implements MailSender {
  readonly delivered: OutgoingMail[] = [];
  refusing = 0;
  /** How many of the next mails to refuse for good (an SMTP 5xx). */
  refusingPermanently = 0;
  /** While true, the relay itself fails (a 535 to AUTH: nothing about any one mail). */
  relayDown = false;

  async send(mail: OutgoingMail): Promise<void> {
    await Promise.resolve();
    if (this.relayDown) throw new MailRelayUnavailable('535 authentication failed');
    if (this.refusingPermanently > 0) {
      this.refusingPermanently -= 1;
      throw new MailRefusedPermanently('550 no such mailbox');
    }
    if (this.refusing > 0) {
      this.refusing -= 1;
      throw new Error('451 try again later');
    }
    this.delivered.push(mail);
  }
}

/**
 * A working session repository (the one given) that counts the writes made through it: each `add`, `save` and
 * `saveMany` is one commit of the store. For the cost of ending many sessions, which must not grow with their number.
 */
export class WriteCountingSessions implements SessionRepository {
  writes = 0;

  constructor(private readonly inner: SessionRepository) {}

  add(session: Session, events: readonly RecordedEvent[]): Promise<void> {
    this.writes += 1;
    return this.inner.add(session, events);
  }

  findById(id: string): Promise<Session | null> {
    return this.inner.findById(id);
  }

  findByUser(userId: string, epoch: number): Promise<Session[]> {
    return this.inner.findByUser(userId, epoch);
  }

  findPageByUser(userId: string, epoch: number, page: PageRequest): Promise<SessionPage> {
    return this.inner.findPageByUser(userId, epoch, page);
  }

  leastRecentlyUsed(userId: string, epoch: number, keep: number, max: number): Promise<Session[]> {
    return this.inner.leastRecentlyUsed(userId, epoch, keep, max);
  }

  save(session: Session, events: readonly RecordedEvent[]): Promise<boolean> {
    this.writes += 1;
    return this.inner.save(session, events);
  }

  saveMany(sessions: readonly Session[], events: readonly RecordedEvent[]): Promise<boolean> {
    this.writes += 1;
    return this.inner.saveMany(sessions, events);
  }

  removeExpired(now: Date, limit: number): Promise<number> {
    return this.inner.removeExpired(now, limit);
  }
}

/**
 * What the fake authenticator answers: the parts a real WebAuthn answer proves (its credential, the challenge its
 * client data carries, the origin, user verification, the counter), in the clear, so that the use cases' rules
 * (single-use challenges bound to their ceremony, counters, one account per credential) are tested without crypto.
 * The browser test runs the real thing.
 */
export interface FakeWebAuthnAnswer {
  readonly id: string;
  readonly challenge: string;
  readonly origin?: string;
  readonly userVerified?: boolean;
  readonly counter?: number;
}

/** A WebAuthn port that checks a FakeWebAuthnAnswer as the real one checks a signed answer. */
export class FakeWebAuthn implements WebAuthn {
  private n = 0;
  constructor(private readonly origins: readonly string[] = ['http://localhost:5173']) {}

  registrationOptions(): Promise<CeremonyOptions> {
    const challenge = `reg-challenge-${++this.n}`;
    return Promise.resolve({ options: { challenge }, challenge });
  }

  authenticationOptions(): Promise<CeremonyOptions> {
    const challenge = `auth-challenge-${++this.n}`;
    return Promise.resolve({ options: { challenge }, challenge });
  }

  claimsOf(response: unknown): { readonly challenge: string; readonly credentialId: string } | null {
    const answer = response as Partial<FakeWebAuthnAnswer> | null;
    return typeof answer?.id === 'string' && typeof answer.challenge === 'string' ? { challenge: answer.challenge, credentialId: answer.id } : null;
  }

  verifyRegistration(response: unknown, challenge: string): Promise<NewCredential> {
    const answer = this.check(response, challenge);
    return Promise.resolve({ id: answer.id, publicKey: `public-key-of-${answer.id}`, counter: answer.counter ?? 0, transports: ['internal'], backedUp: false, deviceType: 'singleDevice' });
  }

  verifyAuthentication(response: unknown, challenge: string, credential: StoredCredential): Promise<VerifiedAssertion> {
    const answer = this.check(response, challenge);
    if (answer.id !== credential.id) throw new PasskeyRejected('could not be verified');
    return Promise.resolve({ counter: answer.counter ?? 0, backedUp: false });
  }

  private check(response: unknown, challenge: string): FakeWebAuthnAnswer {
    const answer = response as FakeWebAuthnAnswer;
    if (answer.challenge !== challenge) throw new PasskeyRejected('answers another challenge');
    if (!this.origins.includes(answer.origin ?? this.origins[0] ?? '')) throw new PasskeyRejected('was made on an origin this service does not accept (WEBAUTHN_ORIGINS)');
    if (answer.userVerified === false) throw new PasskeyRejected('was made without user verification, which is required');
    return answer;
  }
}
