import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { MailRefusedPermanently, MailRelayUnavailable } from '../../src/application/errors.js';
import type { MailSender, OutgoingMail } from '../../src/application/ports/mail-sender.port.js';
import { FileMailSender } from '../../src/infrastructure/mail/file-mail-sender.js';
import { SmtpMailSender } from '../../src/infrastructure/mail/smtp-mail-sender.js';
import { rejection } from '../support/rejection.js';
import { type SmtpInbox, startSmtpInbox } from '../support/smtp-inbox.js';
import { tempDir } from '../support/test-service.js';

const FROM = 'Accounts <accounts@service.test>';
const aMail = (overrides: Partial<OutgoingMail> = {}): OutgoingMail => ({
  to: 'jösé@example.com',
  subject: 'Reset your password',
  text: 'Hello José,\n\nhttps://app.example/reset-password#token=reset1.abc.def.ghi\n',
  html: '<p>Hello Jos&eacute;, <a href="https://app.example/reset-password#token=reset1.abc.def.ghi">this link</a></p>',
  idempotencyKey: '6f1c2a9e-6c1b-4d57-9d5f-0a3c1f9e2b11',
  ...overrides,
});

interface SenderUnderTest {
  readonly sender: MailSender;
  /** Every message the transport holds, parsed. */
  messages(): Promise<ParsedMail[]>;
  dispose(): Promise<void>;
}

/** Every MailSender: the mail arrives whole (both bodies, From, To), once per idempotency key seen by a reader. */
function mailSenderContract(adapter: string, make: () => Promise<SenderUnderTest>): void {
  describe(`MailSender contract: ${adapter}`, () => {
    let under: SenderUnderTest;
    beforeEach(async () => (under = await make()));
    afterEach(async () => under.dispose());

    it('delivers both bodies, the subject, From, To (internationalised too) and a Message-ID from the idempotency key', async () => {
      await under.sender.send(aMail());
      const [message] = await under.messages();
      expect(message?.subject).to.equal('Reset your password');
      expect(message?.from?.value).to.deep.equal([{ name: 'Accounts', address: 'accounts@service.test' }]);
      expect((message?.to as { value: unknown } | undefined)?.value).to.deep.equal([{ name: '', address: 'jösé@example.com' }]);
      expect(message?.text).to.equal(aMail().text);
      expect(message?.html).to.include('href="https://app.example/reset-password#token=reset1.abc.def.ghi"');
      expect(message?.messageId).to.equal('<6f1c2a9e-6c1b-4d57-9d5f-0a3c1f9e2b11@account-service>');
    });

    it('gives a redelivery of one mail the same Message-ID, and two mails different ones', async () => {
      await under.sender.send(aMail());
      await under.sender.send(aMail());
      await under.sender.send(aMail({ idempotencyKey: '0d9e8f7a-1b2c-4d3e-8f4a-5b6c7d8e9f00' }));
      const ids = (await under.messages()).map((message) => message.messageId);
      expect(new Set(ids)).to.deep.equal(new Set(['<6f1c2a9e-6c1b-4d57-9d5f-0a3c1f9e2b11@account-service>', '<0d9e8f7a-1b2c-4d3e-8f4a-5b6c7d8e9f00@account-service>']));
    });
  });
}

mailSenderContract('SMTP (nodemailer to a real SMTP server)', async () => {
  const inbox = await startSmtpInbox();
  const sender = new SmtpMailSender(inbox.url, FROM);
  return {
    sender,
    messages: () => Promise.resolve(inbox.received.map((mail) => mail.parsed)),
    dispose: async () => {
      sender.close();
      await inbox.close();
    },
  };
});

mailSenderContract('files under DATA_DIR/mail', () => {
  const dir = tempDir('mail-files');
  const sender = new FileMailSender(join(dir, 'mail'), FROM, { info: () => undefined });
  return Promise.resolve({
    sender,
    messages: () => Promise.all(readdirSync(join(dir, 'mail')).map((name) => simpleParser(readFileSync(join(dir, 'mail', name))))),
    dispose: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  });
});

describe('MailSender: SMTP refusals', () => {
  let inbox: SmtpInbox;
  before(async () => (inbox = await startSmtpInbox()));
  after(async () => inbox.close());

  it('a 4xx to the recipient is a plain failure (retried, counted); a 5xx to it refuses this mail for good', async () => {
    const sender = new SmtpMailSender(inbox.url, FROM);
    try {
      inbox.refuseNext(1, 451);
      const busy = await rejection(sender.send(aMail()));
      expect(busy).to.be.an('error').and.not.be.instanceOf(MailRefusedPermanently);
      expect(busy).to.not.be.instanceOf(MailRelayUnavailable);
      inbox.refuseNext(1, 550);
      expect(await rejection(sender.send(aMail()))).to.be.instanceOf(MailRefusedPermanently);
      expect(inbox.received).to.deep.equal([]);
      await sender.send(aMail());
      expect(inbox.received).to.have.length(1);
    } finally {
      sender.close();
    }
  });

  it('wrong credentials (535) are the relay failing, not the mail: MailRelayUnavailable, never a permanent refusal', async () => {
    const wrongPassword = new SmtpMailSender(inbox.url.replace('s3cret-smtp', 'wrong'), FROM);
    try {
      const error = await rejection(wrongPassword.send(aMail()));
      expect(error).to.be.instanceOf(MailRelayUnavailable);
      expect((error as Error).message).to.include('535');
    } finally {
      wrongPassword.close();
    }
  });

  it('a 554 greeting and a refused connection are the relay failing too', async () => {
    const refusing = createServer((socket) => socket.end('554 5.3.2 no service here\r\n'));
    refusing.listen(0, '127.0.0.1');
    await once(refusing, 'listening');
    const { port } = refusing.address() as AddressInfo;
    const greeted = new SmtpMailSender(`smtp://mailer:s3cret-smtp@127.0.0.1:${port}`, FROM);
    try {
      expect(await rejection(greeted.send(aMail()))).to.be.instanceOf(MailRelayUnavailable);
    } finally {
      greeted.close();
      refusing.close();
    }
    const closed = new SmtpMailSender(`smtp://mailer:s3cret-smtp@127.0.0.1:${port}`, FROM);
    try {
      expect(await rejection(closed.send(aMail()))).to.be.instanceOf(MailRelayUnavailable);
    } finally {
      closed.close();
    }
  });
});

describe('MailSender: an SMTP server that hangs (issue 23, finding 5)', () => {
  it('gives up within a third of the outbox lease (here 3 s: 1 s), so another instance never sends the mail twice', async function () {
    this.timeout(10_000);
    const silent = createServer((socket) => socket.on('error', () => undefined));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as AddressInfo;
    const sender = new SmtpMailSender(`smtp://mailer:s3cret-smtp@127.0.0.1:${port}`, FROM, 3_000);
    try {
      const started = Date.now();
      const error = await Promise.race([rejection(sender.send(aMail())), new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5_000))]);
      expect(error, 'the send gave up').to.be.an('error');
      expect(Date.now() - started).to.be.below(3_000);
    } finally {
      sender.close();
      silent.close();
    }
  });
});

/** A self-signed certificate for 127.0.0.1 made by openssl, or null where openssl is missing. */
function selfSignedCertificate(): { key: string; cert: string } | null {
  const dir = tempDir('smtp-tls-');
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('MailSender: TLS over the connection the sender opens itself (TCP_NODELAY)', () => {
  for (const mode of ['implicit TLS (smtps:)', 'STARTTLS (smtp:, requireTLS)'] as const) {
    it(`delivers over ${mode}`, async function () {
      const certificate = selfSignedCertificate();
      if (!certificate) {
        (this.test as unknown as { parent: { skipReason: string } }).parent.skipReason = 'needs openssl to make a certificate for the test SMTP server';
        this.skip();
      }
      const implicit = mode.startsWith('implicit');
      const received: string[] = [];
      const server = new SMTPServer({
        ...certificate, secure: implicit, authOptional: true, logger: false, disableReverseLookup: true,
        onData(stream, session, callback) {
          stream.on('data', () => undefined);
          stream.on('end', () => {
            received.push(`${session.secure ? 'tls' : 'plain'} ${session.envelope.rcptTo.map((to) => to.address).join(',')}`);
            callback();
          });
        },
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
      const { port } = server.server.address() as AddressInfo;
      const url = implicit ? `smtps://127.0.0.1:${port}?tls.rejectUnauthorized=false` : `smtp://127.0.0.1:${port}?requireTLS=true&tls.rejectUnauthorized=false`;
      const sender = new SmtpMailSender(url, FROM);
      try {
        await sender.send(aMail({ to: 'ada@example.com' }));
        await sender.send(aMail({ to: 'grace@example.com', idempotencyKey: 'second' }));
        expect(received).to.deep.equal(['tls ada@example.com', 'tls grace@example.com']);
      } finally {
        sender.close();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });
  }
});
