import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  readonly envelopeTo: string[];
  readonly parsed: ParsedMail;
}

export interface SmtpInbox {
  /** `smtp://user:pass@127.0.0.1:<port>` for SMTP_URL. */
  readonly url: string;
  readonly received: ReceivedMail[];
  /** Recipients refused so far (451, "try again later"). */
  readonly refusals: string[];
  /** How many of the next recipients to refuse, with 451 (greylisting, overload) or a permanent 5xx code. */
  refuseNext(count: number, responseCode?: number): void;
  /** While on, every AUTH is answered 535 (the relay's credentials rotated, or its directory is down). */
  failAuth(on: boolean): void;
  /** AUTH attempts refused so far by failAuth. */
  readonly authRefusals: () => number;
  close(): Promise<void>;
}

/**
 * A real SMTP server on an ephemeral local port (the `smtp-server` package), requiring AUTH, parsing every
 * message with `mailparser`. A message is in `received` before the server answers 250 to its DATA, so once the
 * service's delivery resolves, its mail is here. Plain text on loopback: STARTTLS is not offered.
 */
export async function startSmtpInbox(credentials = { user: 'mailer', pass: 's3cret-smtp' }): Promise<SmtpInbox> {
  const received: ReceivedMail[] = [];
  const refusals: string[] = [];
  let refusing = 0;
  let refusalCode = 451;
  let authFailing = false;
  let authRefusals = 0;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (authFailing) {
        authRefusals += 1;
        callback(Object.assign(new Error('authentication failed'), { responseCode: 535 }));
      } else if (auth.username === credentials.user && auth.password === credentials.pass) callback(null, { user: auth.username });
      else callback(new Error('535 authentication failed'));
    },
    onRcptTo(address, _session, callback) {
      if (refusing > 0) {
        refusing -= 1;
        refusals.push(address.address);
        const text = refusalCode >= 500 ? 'no such mailbox' : 'try again later';
        callback(Object.assign(new Error(text), { responseCode: refusalCode }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({ envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address), parsed });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://${credentials.user}:${credentials.pass}@127.0.0.1:${port}`,
    received,
    refusals,
    refuseNext: (count, responseCode = 451) => {
      refusing = count;
      refusalCode = responseCode;
    },
    failAuth: (on) => {
      authFailing = on;
    },
    authRefusals: () => authRefusals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
