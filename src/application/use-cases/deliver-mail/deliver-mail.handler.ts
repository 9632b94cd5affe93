import type { NoticeMail } from '../../ports/capability-notices.port.js';
import { accountDeletedMail, newDeviceMail } from '../../policies/account-mail.js';
import { MailRefusedPermanently, MailRelayUnavailable } from '../../errors.js';
import type { RecordedEvent } from '../../ports/event-log.port.js';
import type { OutgoingMail } from '../../ports/mail-sender.port.js';
import type { Ports } from '../../ports/ports.js';
import { noticeMayGo } from '../../policies/new-device.js';
import { CANCEL_SIGN_UP_PAGE, type MailContent, type MailSettings, linkFor, credentialsRemovedMail, passwordChangedMail, resetMail, verificationMail } from '../../policies/mail.js';

export interface DeliverySettings {
  /** How long a claimed mail is reserved for this dispatcher. */
  readonly leaseMs: number;
  readonly batchSize: number;
  /** First retry after this; doubled per failed attempt, up to `maxBackoffMs`. */
  readonly baseBackoffMs: number;
  readonly maxBackoffMs: number;
  /** A mail that failed this many times is given up: a dead letter. */
  readonly maxAttempts: number;
  /** Mails being sent at once, at most: a slow or hanging address holds up no other mail. */
  readonly sendConcurrency: number;
}

/** One failed delivery: retried later, or, when `deadLetter`, given up for good and kept for an operator. */
export interface DeliveryFailure {
  readonly eventId: string;
  /** Failed deliveries so far, this one included. */
  readonly attempts: number;
  readonly error: unknown;
  readonly deadLetter: boolean;
}

export interface DeliveryReport {
  readonly sent: number;
  /** The mails that failed on their own account (counted attempts, dead letters). */
  readonly failed: readonly DeliveryFailure[];
  /**
   * The relay's state as this run saw it: `failing` when it failed (connection, greeting, TLS, authentication) and no
   * mail went through, `up` when a mail went through, `unknown` when nothing was sent. Mails the relay failed are
   * put back without an attempt counted against them, due again after the relay's own backoff.
   */
  readonly relay: { readonly state: 'up' | 'failing' | 'unknown'; readonly postponed: number; readonly lastError?: unknown };
}

/** The longest error text kept with a dead letter. */
const MAX_ERROR_TEXT = 500;
/** Runs `work` on every item, at most `limit` at once; resolves once all are done, rejects with the first rejection. */
async function forEachBounded<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let item = items[next++]; item !== undefined; item = items[next++]) await work(item);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_TEXT);

/**
 * Delivers due mails from the outbox, at least once: claim a batch (a lease, so instances sharing the store do not
 * send one mail twice in the normal case), render, send with the event id as idempotency key, and mark the sent ones
 * of the batch in one write once its sends are done (a crash before that sends them again); a failure is retried
 * with exponential backoff, and given up (a dead letter) after `maxAttempts` failures or at once when the transport
 * refuses the mail for good. Mails are rendered at send time: the token is derived again from the event, never read.
 * A capability's event is rendered by the notice its manifest declares (`notices`: given by the container, which
 * fills it from the manifests; absent, as in the handler's own specs, no capability's notice is sent).
 */
export class DeliverMailHandler {
  constructor(
    private readonly deps: Pick<Ports, 'outbox' | 'mail' | 'notices' | 'users' | 'oneTimeTokens' | 'limits' | 'clock'>,
    private readonly mail: MailSettings,
    private readonly delivery: DeliverySettings,
  ) {}

  /** Runs in a row in which the relay failed and no mail went through: its backoff doubles with each. */
  private relayFailures = 0;

  async execute(): Promise<DeliveryReport> {
    const { outbox, clock } = this.deps;
    const due = await outbox.claim(clock.now(), this.delivery.leaseMs, this.delivery.batchSize);
    let sent = 0;
    const done: string[] = [];
    const failed: DeliveryFailure[] = [];
    const relayFailed: { eventId: string; error: unknown }[] = [];
    await forEachBounded(due, this.delivery.sendConcurrency, async ({ event, attempts }) => {
      try {
        const mail = await this.compose(event);
        if (mail) await this.deps.mail.send(mail);
        done.push(event.eventId);
        sent += mail ? 1 : 0;
      } catch (error) {
        if (error instanceof MailRelayUnavailable) relayFailed.push({ eventId: event.eventId, error });
        else failed.push(await this.recordFailure(event.eventId, attempts + 1, error));
      }
    });
    await outbox.markSent(done);
    return { sent, failed, relay: await this.relayReport(sent, relayFailed) };
  }

  /** Puts back the mails the relay failed, after the relay's backoff, and says how the relay fared. */
  private async relayReport(sent: number, relayFailed: readonly { eventId: string; error: unknown }[]): Promise<DeliveryReport['relay']> {
    if (sent > 0) this.relayFailures = 0;
    if (relayFailed.length === 0) return { state: sent > 0 ? 'up' : 'unknown', postponed: 0 };
    if (sent === 0) this.relayFailures += 1;
    const backoff = Math.min(this.delivery.baseBackoffMs * 2 ** Math.max(0, this.relayFailures - 1), this.delivery.maxBackoffMs);
    const until = new Date(this.deps.clock.now().getTime() + backoff);
    for (const { eventId, error } of relayFailed) await this.deps.outbox.postpone(eventId, until, errorText(error));
    return { state: sent > 0 ? 'up' : 'failing', postponed: relayFailed.length, lastError: relayFailed.at(-1)?.error };
  }

  private async recordFailure(eventId: string, attempts: number, error: unknown): Promise<DeliveryFailure> {
    const { outbox, clock } = this.deps;
    const now = clock.now().getTime();
    const deadLetter = error instanceof MailRefusedPermanently || attempts >= this.delivery.maxAttempts;
    if (deadLetter) await outbox.markDead(eventId, new Date(now), errorText(error));
    else {
      const backoff = Math.min(this.delivery.baseBackoffMs * 2 ** (attempts - 1), this.delivery.maxBackoffMs);
      await outbox.markFailed(eventId, new Date(now + backoff), errorText(error));
    }
    return { eventId, attempts, error, deadLetter };
  }

  /** The mail an event asks for, or null when there is none to send (no account, not a mail event, a notice past its cap). */
  private async compose(event: RecordedEvent): Promise<OutgoingMail | null> {
    if (event.aggregateId === null) return null;
    // The account is gone: its notice carries the address and name it had.
    if (event.type === 'AccountDeletionNoticed') return { to: event.payload.email, ...accountDeletedMail(event.payload.name), idempotencyKey: event.eventId };
    const user = await this.deps.users.findById(event.aggregateId);
    if (!user) return null;
    const name = user.emailVerified ? user.name.value : null;
    const notice = this.deps.notices.noticeOf(event, name, this.noticeMail(event));
    if (notice) return { ...notice, to: notice.to ?? user.email.value, idempotencyKey: event.eventId };
    if (!('email' in event.payload)) return null;
    if (event.type === 'NewDeviceSignedIn' && !(await noticeMayGo(this.deps, this.mail.verificationPerAddress, user, event.payload.email))) return null;
    const content = this.render(event, name);
    return content && { to: event.payload.email, ...content, idempotencyKey: event.eventId };
  }

  /** What a capability's notice of `event` may link to: the app's pages, with a token for its account issued at its time. */
  private noticeMail(event: RecordedEvent): NoticeMail {
    const { oneTimeTokens } = this.deps;
    const claim = { userId: event.aggregateId ?? '', issuedAt: event.occurredAt };
    return {
      link: (purpose, binding) => linkFor(this.mail, purpose, oneTimeTokens.issue({ ...claim, purpose }, binding)),
      bindingFor: (purpose, subject) => oneTimeTokens.bindingFor(purpose, { ...subject, id: claim.userId }),
      verificationTtlSeconds: this.mail.verificationTtlSeconds,
    };
  }

  private render(event: RecordedEvent, name: string | null): MailContent | null {
    const { oneTimeTokens } = this.deps;
    const userId = event.aggregateId ?? '';
    switch (event.type) {
      case 'EmailVerificationRequested': {
        const token = oneTimeTokens.issue({ purpose: 'verify', userId, issuedAt: event.occurredAt }, event.payload.binding);
        return verificationMail(name, linkFor(this.mail, 'verify', token), Math.round(this.mail.verificationTtlSeconds / 3600), linkFor(this.mail, 'verify', token, CANCEL_SIGN_UP_PAGE));
      }
      case 'PasswordResetRequested': {
        if (event.payload.binding === null) return null;
        const token = oneTimeTokens.issue({ purpose: 'reset', userId, issuedAt: event.occurredAt }, event.payload.binding);
        return resetMail(name, linkFor(this.mail, 'reset', token), Math.round(this.mail.resetTtlSeconds / 60));
      }
      case 'PasswordReset':
        return passwordChangedMail(name, 'reset');
      case 'PasswordChanged':
        return passwordChangedMail(name, 'owner');
      case 'CredentialsRemoved':
        return credentialsRemovedMail(name);
      case 'NewDeviceSignedIn':
        return newDeviceMail(name, { at: event.occurredAt, device: event.payload.device, network: event.payload.network }, `${this.mail.publicAppUrl.replace(/\/+$/, '')}/sessions`);
      default:
        return null;
    }
  }
}
