import nodemailer, { type Transporter } from 'nodemailer';
import { MailRefusedPermanently } from '../../application/errors.js';
import type { MailSender, OutgoingMail } from '../../application/ports/mail-sender.port.js';

/** Message-ID from the idempotency key: a redelivered mail carries the same id, so a mail client shows it once. */
export const messageIdOf = (key: string): string => `<${key}@account-service>`;

/** True for nodemailer's error of a reply in the 5xx class: the server refused for good (RFC 5321, 4.2.1). */
const isPermanent = (error: unknown): boolean => {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

const TIMEOUTS = ['connectionTimeout', 'greetingTimeout', 'socketTimeout'] as const;

/**
 * The SMTP URL with a deadline for each stage of a send, as query parameters (nodemailer reads its options from the
 * URL's query and ignores any passed beside a URL); one the operator set in the URL is kept.
 */
const withTimeouts = (smtpUrl: string, stageMs: number): string => {
  const url = new URL(smtpUrl);
  for (const name of TIMEOUTS) if (!url.searchParams.has(name)) url.searchParams.set(name, String(stageMs));
  return url.toString();
};

/**
 * SMTP through nodemailer. A 5xx refusal rejects with MailRefusedPermanently (never retried); anything else
 * (4xx, a network failure, a timeout) rejects with nodemailer's error, retried later. `SMTP_URL` as nodemailer reads it: `smtp://user:pass@host:587` (STARTTLS when the
 * server offers it; `?requireTLS=true` to insist), `smtps://…:465` for implicit TLS.
 */
export class SmtpMailSender implements MailSender {
  private readonly transport: Transporter;

  /**
   * `leaseMs` is how long the dispatcher holds a mail before another instance may send it: each stage of a send
   * (connecting, the greeting, any silence afterwards) gives up after a third of it, so a send that hangs fails (and
   * is retried) before the lease runs out, instead of being sent twice.
   */
  constructor(smtpUrl: string, private readonly from: string, leaseMs = 30_000) {
    this.transport = nodemailer.createTransport(withTimeouts(smtpUrl, Math.max(1000, Math.floor(leaseMs / 3))));
  }

  async send(mail: OutgoingMail): Promise<void> {
    try {
      await this.transport.sendMail({
        from: this.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: messageIdOf(mail.idempotencyKey),
      });
    } catch (error) {
      if (isPermanent(error)) throw new MailRefusedPermanently((error as Error).message, { cause: error });
      throw error;
    }
  }

  close(): void {
    this.transport.close();
  }
}
