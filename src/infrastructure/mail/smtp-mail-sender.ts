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

/**
 * SMTP through nodemailer. A 5xx refusal rejects with MailRefusedPermanently (never retried); anything else
 * (4xx, a network failure, a timeout) rejects with nodemailer's error, retried later. `SMTP_URL` as nodemailer reads it: `smtp://user:pass@host:587` (STARTTLS when the
 * server offers it; `?requireTLS=true` to insist), `smtps://…:465` for implicit TLS.
 */
export class SmtpMailSender implements MailSender {
  private readonly transport: Transporter;

  constructor(smtpUrl: string, private readonly from: string) {
    this.transport = nodemailer.createTransport(smtpUrl);
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
