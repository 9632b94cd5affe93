import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { MailSender, OutgoingMail } from '../../application/ports/mail-sender.port.js';
import { messageOf } from './smtp-mail-sender.js';

/**
 * The embedded default: each mail written as an RFC 5322 `.eml` file under `DATA_DIR/mail/`, named by its
 * idempotency key (so a redelivery rewrites the same file), written to a temporary name and renamed into place,
 * with one log line naming the file. Open it with any mail client, or read the link in it.
 */
export class FileMailSender implements MailSender {
  private readonly compose: Transporter;

  constructor(
    private readonly directory: string,
    private readonly from: string,
    private readonly logger: Pick<Logger, 'info'>,
  ) {
    this.compose = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(mail: OutgoingMail): Promise<void> {
    const info = (await this.compose.sendMail(messageOf(this.from, mail))) as { message: Buffer };
    await mkdir(this.directory, { recursive: true });
    const file = join(this.directory, `${mail.idempotencyKey}.eml`);
    await writeFile(`${file}.tmp`, info.message, { mode: 0o600 });
    await rename(`${file}.tmp`, file);
    this.logger.info({ file, subject: mail.subject }, 'mail written to a file (no SMTP_URL configured)');
  }
}
