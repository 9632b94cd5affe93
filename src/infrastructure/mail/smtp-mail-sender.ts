import { connect } from 'node:net';
import nodemailer, { type Transporter } from 'nodemailer';
import { MailRefusedPermanently, MailRelayUnavailable } from '../../application/errors.js';
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

/** nodemailer's SMTP error: the command answered (`RCPT TO`, `DATA`, `CONN`, `AUTH PLAIN`, ...) and the reply code. */
interface SmtpError {
  readonly responseCode?: unknown;
  readonly command?: unknown;
  readonly code?: unknown;
}

/** The commands that carry this mail's own envelope and content: a 5xx to one of them refuses this mail for good. */
const MAIL_COMMANDS = new Set(['RCPT TO', 'DATA']);
/** What the relay does before any mail: connecting, the greeting, EHLO, STARTTLS and TLS, authentication. */
const RELAY_COMMANDS = /^(CONN|EHLO|HELO|LHLO|STARTTLS|AUTH\b)/;
const RELAY_ERROR_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'ETLS', 'EAUTH', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * What a failed send says (RFC 5321, 4.2.1, read per command): `permanent` only for a 5xx reply to this mail's own
 * envelope or content (RCPT TO, DATA); `relay` when the relay failed before the mail (a connection, greeting, TLS or
 * authentication failure, 4xx or 5xx: 535 and a 554 greeting are the relay's condition, not the mail's); `retry`
 * for the rest (a 4xx to the mail, a MAIL FROM refusal, which the relay's policy may lift).
 */
export const classifySmtpFailure = (error: unknown): 'permanent' | 'relay' | 'retry' => {
  const { responseCode, command, code } = (error ?? {}) as SmtpError;
  const commandName = typeof command === 'string' ? command.toUpperCase() : '';
  if (typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600 && MAIL_COMMANDS.has(commandName)) return 'permanent';
  if (RELAY_COMMANDS.test(commandName) || (typeof code === 'string' && RELAY_ERROR_CODES.has(code))) return 'relay';
  return 'retry';
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
 * SMTP through nodemailer. A 5xx refusal of this mail (RCPT TO, DATA) rejects with MailRefusedPermanently (never
 * retried); a failure of the relay itself (connection, greeting, TLS, authentication, whatever its code) with
 * MailRelayUnavailable (retried, no attempt counted); anything else (a 4xx to the mail) with nodemailer's error,
 * retried later. `SMTP_URL` as nodemailer reads it: `smtp://user:pass@host:587` (STARTTLS when the
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
      const kind = classifySmtpFailure(error);
      if (kind === 'permanent') throw new MailRefusedPermanently((error as Error).message, { cause: error });
      if (kind === 'relay') throw new MailRelayUnavailable((error as Error).message, { cause: error });
      throw error;
    }
  }

  close(): void {
    this.transport.close();
  }
}
