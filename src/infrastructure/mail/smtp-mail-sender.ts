import nodemailer, { type Transporter } from 'nodemailer';
import type { MailSender, OutgoingMail } from '../../application/ports/mail-sender.port.js';

/** Message-ID from the idempotency key: a redelivered mail carries the same id, so a mail client shows it once. */
export const messageIdOf = (key: string): string => `<${key}@account-service>`;

/**
 * SMTP through nodemailer. `SMTP_URL` as nodemailer reads it: `smtp://user:pass@host:587` (STARTTLS when the
 * server offers it; `?requireTLS=true` to insist), `smtps://…:465` for implicit TLS.
 */
export class SmtpMailSender implements MailSender {
  private readonly transport: Transporter;

  constructor(smtpUrl: string, private readonly from: string) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: messageIdOf(mail.idempotencyKey),
    });
  }

  close(): void {
    this.transport.close();
  }
}
