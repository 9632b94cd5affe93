import { token } from '../di-token.js';

export interface OutgoingMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** Stable per mail (the event id): sent as the Message-ID, so a redelivery is recognisable as the same mail. */
  readonly idempotencyKey: string;
}

/** Hands mails to a transport (SMTP, or files for a newcomer). */
export interface MailSender {
  /**
   * Resolves once the transport accepted the mail. Rejects with MailRefusedPermanently (application/errors) when the
   * transport refused this mail for good (an SMTP 5xx to its envelope or content: never retried), with
   * MailRelayUnavailable when the relay itself failed (retried, no attempt counted against the mail), with any other
   * error when it may succeed later.
   */
  send(mail: OutgoingMail): Promise<void>;
}

export const MAIL_SENDER = token<MailSender>('MailSender');
