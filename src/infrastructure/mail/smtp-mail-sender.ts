import { connect } from 'node:net';
import nodemailer, { type Transporter } from 'nodemailer';
import { MailRefusedPermanently } from '../../application/errors.js';
import type { MailSender, OutgoingMail } from '../../application/ports/mail-sender.port.js';

/** Message-ID from the idempotency key: a redelivered mail carries the same id, so a mail client shows it once. */
export const messageIdOf = (key: string): string => `<${key}@account-service>`;

/** The message nodemailer builds for a mail, the same for every sender. */
export const messageOf = (from: string, mail: OutgoingMail) => ({
  from,
  to: mail.to,
  subject: mail.subject,
  text: mail.text,
  html: mail.html,
  messageId: messageIdOf(mail.idempotencyKey),
});

/** True for nodemailer's error of a reply in the 5xx class: the server refused for good (RFC 5321, 4.2.1). */
const isPermanent = (error: unknown): boolean => {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

/**
 * The SMTP URL with the transport's options as query parameters (nodemailer reads its options from the URL's query
 * and ignores any passed beside a URL); one the operator set in the URL is kept: a deadline for each stage of a send,
 * and a pool of reused connections, one per mail sent at once.
 */
const withOptions = (smtpUrl: string, stageMs: number, connections: number): string => {
  const url = new URL(smtpUrl);
  const options = { connectionTimeout: stageMs, greetingTimeout: stageMs, socketTimeout: stageMs, pool: 'true', maxConnections: connections };
  for (const [name, value] of Object.entries(options)) if (!url.searchParams.has(name)) url.searchParams.set(name, String(value));
  return url.toString();
};

/** What nodemailer passes to a transport's `getSocket`, and what it takes back: an open TCP connection. */
type SocketRequest = { readonly host?: string; readonly port?: number | string; readonly secure?: boolean };
type SocketCallback = (error: Error | null, socket?: { connection: ReturnType<typeof connect> }) => void;

/**
 * Opens the TCP connection for nodemailer with Nagle's algorithm off (TCP_NODELAY), within `timeoutMs`. SMTP is a
 * conversation of small writes, and with Nagle on each one after the first waits for the server's delayed ACK
 * (about 40 ms): measured here, a pooled connection sent 21 mails a second with it and 210 without. nodemailer
 * starts TLS on it itself (implicit for `smtps:` and port 465, STARTTLS otherwise). Its default ports.
 */
const noDelaySocket = (timeoutMs: number) => (request: SocketRequest, callback: SocketCallback): void => {
  const secure = request.secure === true || Number(request.port) === 465;
  const socket = connect({ host: request.host ?? 'localhost', port: Number(request.port) || (secure ? 465 : 587), noDelay: true });
  const fail = (error: Error) => {
    socket.destroy();
    callback(error);
  };
  const timer = setTimeout(() => fail(Object.assign(new Error('Connection timeout'), { code: 'ETIMEDOUT' })), timeoutMs);
  socket.once('error', (error) => {
    clearTimeout(timer);
    fail(error);
  });
  socket.once('connect', () => {
    clearTimeout(timer);
    socket.removeAllListeners('error');
    callback(null, { connection: socket });
  });
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
   * is retried) before the lease runs out, instead of being sent twice. `connections` SMTP connections are kept open
   * and reused (MAIL_SEND_CONCURRENCY): a new connection per mail, with its TLS and AUTH, capped delivery at a few
   * mails a second.
   */
  constructor(smtpUrl: string, private readonly from: string, leaseMs = 30_000, connections = 8) {
    const stageMs = Math.max(1000, Math.floor(leaseMs / 3));
    this.transport = nodemailer.createTransport(withOptions(smtpUrl, stageMs, connections));
    // nodemailer reads no options beside a URL, but takes a socket factory on the transport (its proxy hook).
    (this.transport.transporter as { getSocket?: unknown }).getSocket = noDelaySocket(stageMs);
  }

  async send(mail: OutgoingMail): Promise<void> {
    try {
      await this.transport.sendMail(messageOf(this.from, mail));
    } catch (error) {
      if (isPermanent(error)) throw new MailRefusedPermanently((error as Error).message, { cause: error });
      throw error;
    }
  }

  close(): void {
    this.transport.close();
  }
}
