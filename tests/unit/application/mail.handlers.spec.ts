import { expect } from 'chai';
import { EmailNotVerified } from '../../../src/application/errors.js';
import type { OutgoingMail } from '../../../src/application/ports/mail-sender.port.js';
import { InvalidInput } from '../../../src/domain/domain-error.js';
import { aRequestMetadata, aSignInCommand, aSignUpCommand } from '../../support/builders.js';
import { type WorldOptions, inMemoryWorld } from '../../support/in-memory-world.js';
import { tokenInText } from '../../support/mail.js';
import { rejection } from '../../support/rejection.js';

const metadata = aRequestMetadata();
const NEW_PASSWORD = 'difference engine 1822';

const tokenIn = (mail: OutgoingMail | undefined): string => tokenInText(mail?.text);

async function worldWithAda(options: WorldOptions = {}) {
  const world = inMemoryWorld(options);
  const signedUp = await world.signUp.execute(aSignUpCommand());
  return { world, signedUp };
}

const issuesOf = (error: unknown) => (error as InvalidInput).issues;

describe('Mail use cases: password reset and e-mail verification', () => {
  describe('RequestPasswordResetHandler and DeliverMailHandler', () => {
    it('records the request and sends nothing in the request; the dispatcher then mails a link to the account', async () => {
      const { world } = await worldWithAda();
      await world.deliverMail.execute();
      world.mail.delivered.length = 0;

      await world.requestPasswordReset.execute({ email: ' ADA@example.com ', metadata });
      expect(world.mail.delivered).to.deep.equal([]);
      const report = await world.deliverMail.execute();

      expect(report).to.deep.equal({ sent: 1, failed: [] });
      const [mail] = world.mail.delivered;
      expect(mail?.to).to.equal('ada@example.com');
      expect(mail?.subject).to.equal('Reset your password');
      expect(mail?.text).to.match(/^Hello Ada,/).and.include('https://app.example/reset-password#token=reset1.');
      const requested = world.store.events.find((event) => event.type === 'PasswordResetRequested');
      expect(mail?.idempotencyKey).to.equal(requested?.eventId);
      expect(await world.deliverMail.execute()).to.deep.equal({ sent: 0, failed: [] });
    });

    it('records a request for an unknown address the same way, with no account and no mail', async () => {
      const { world } = await worldWithAda();
      await world.deliverMail.execute();
      const before = world.mail.delivered.length;

      await world.requestPasswordReset.execute({ email: 'nobody@example.com', metadata });
      await world.deliverMail.execute();

      expect(world.mail.delivered).to.have.length(before);
      expect(world.store.events.at(-1)).to.deep.include({ type: 'PasswordResetRequested', aggregateId: null, payload: { email: 'nobody@example.com', binding: null } });
    });

    it('refuses a malformed address only, with an entry for email', async () => {
      const world = inMemoryWorld();
      const error = await rejection(world.requestPasswordReset.execute({ email: 'not an address', metadata }));
      expect(error).to.be.instanceOf(InvalidInput);
      expect(issuesOf(error).map((issue) => issue.field)).to.deep.equal(['email']);
    });

    it('records at most `max` requests per address per window, silently; a new window allows more', async () => {
      const { world } = await worldWithAda({ mail: { resetPerAddress: { max: 2, windowSeconds: 600 } } });
      for (let i = 0; i < 4; i++) await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata });
      const count = () => world.store.events.filter((event) => event.type === 'PasswordResetRequested').length;
      expect(count()).to.equal(2);
      world.clock.advance(600_000);
      await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata });
      expect(count()).to.equal(3);
    });

    it('keeps no token in any event: the request holds a keyed binding from which the token cannot be read', async () => {
      const { world } = await worldWithAda();
      await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata });
      await world.deliverMail.execute();
      const tokens = world.mail.delivered.map(tokenIn);
      expect(tokens).to.have.length(2);
      const log = JSON.stringify(world.store.events);
      for (const token of tokens) {
        expect(log).not.to.include(token);
        expect(log).not.to.include(token.split('.').at(-1));
      }
    });

    it('retries a refused mail with exponential backoff, and sends it exactly once when the transport accepts', async () => {
      const { world } = await worldWithAda();
      world.mail.refusing = 3;

      expect((await world.deliverMail.execute()).failed.map((failure) => failure.attempts)).to.deep.equal([1]);
      world.clock.advance(999);
      expect(await world.deliverMail.execute(), 'not before the first backoff (1 s)').to.deep.equal({ sent: 0, failed: [] });
      world.clock.advance(1);
      expect((await world.deliverMail.execute()).failed.map((failure) => failure.attempts)).to.deep.equal([2]);
      world.clock.advance(1_999);
      expect(await world.deliverMail.execute(), 'the second backoff doubles (2 s)').to.deep.equal({ sent: 0, failed: [] });
      world.clock.advance(1);
      expect((await world.deliverMail.execute()).failed).to.have.length(1);
      world.clock.advance(4_000);
      expect(await world.deliverMail.execute()).to.deep.equal({ sent: 1, failed: [] });
      world.clock.advance(3_600_000);
      expect(await world.deliverMail.execute()).to.deep.equal({ sent: 0, failed: [] });
      expect(world.mail.delivered.map((mail) => mail.subject)).to.deep.equal(['Confirm your e-mail address']);
    });

    it('escapes the name in the HTML body and keeps it as typed in the text body', async () => {
      const world = inMemoryWorld();
      await world.signUp.execute(aSignUpCommand({ name: '<b>Ada</b> & "co"' }));
      await world.deliverMail.execute();
      const [mail] = world.mail.delivered;
      expect(mail?.html).to.include('Hello &lt;b&gt;Ada&lt;/b&gt; &amp; &quot;co&quot;,').and.not.include('<b>Ada</b>');
      expect(mail?.text).to.include('Hello <b>Ada</b> & "co",');
    });
  });

  describe('ConfirmPasswordResetHandler', () => {
    async function resetLink(options: WorldOptions = {}) {
      const { world } = await worldWithAda(options);
      await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata });
      await world.deliverMail.execute();
      const token = tokenIn(world.mail.delivered.find((mail) => mail.subject === 'Reset your password'));
      return { world, token };
    }

    it('sets the new password, ends every session of the account, records PasswordReset and mails a notice', async () => {
      const { world, token } = await resetLink();
      const other = await world.signIn.execute(aSignInCommand());

      const user = await world.confirmPasswordReset.execute({ token, newPassword: NEW_PASSWORD, metadata });

      expect(user.email).to.equal('ada@example.com');
      expect((await world.ports.sessions.findByUser(user.id)).filter((session) => !session.revoked)).to.deep.equal([]);
      expect(await rejection(world.refreshSession.execute({ refreshToken: other.refreshToken, metadata }))).to.be.an('error');
      expect(await rejection(world.signIn.execute(aSignInCommand()))).to.be.an('error');
      expect((await world.signIn.execute(aSignInCommand({ password: NEW_PASSWORD }))).user.id).to.equal(user.id);
      expect(world.store.events.some((event) => event.type === 'PasswordReset')).to.equal(true);
      await world.deliverMail.execute();
      expect(world.mail.delivered.at(-1)?.subject).to.equal('Your password was changed');
    });

    it('accepts a token once: a second use is refused on field token', async () => {
      const { world, token } = await resetLink();
      await world.confirmPasswordReset.execute({ token, newPassword: NEW_PASSWORD, metadata });
      const error = await rejection(world.confirmPasswordReset.execute({ token, newPassword: 'yet another long passphrase', metadata }));
      expect(issuesOf(error)).to.deep.equal([{ field: 'token', message: 'is invalid, expired or already used' }]);
    });

    it('refuses a token past PASSWORD_RESET_TTL_SECONDS, and accepts it just before', async () => {
      const { world, token } = await resetLink({ mail: { resetTtlSeconds: 60 } });
      world.clock.advance(60_001);
      expect(issuesOf(await rejection(world.confirmPasswordReset.execute({ token, newPassword: NEW_PASSWORD, metadata }))).map((issue) => issue.field)).to.deep.equal(['token']);

      const fresh = await resetLink({ mail: { resetTtlSeconds: 60 } });
      fresh.world.clock.advance(60_000);
      expect((await fresh.world.confirmPasswordReset.execute({ token: fresh.token, newPassword: NEW_PASSWORD, metadata })).email).to.equal('ada@example.com');
    });

    it('refuses a token once the password changed any other way (bound to the password it was issued under)', async () => {
      const { world, token } = await resetLink();
      const session = await world.signIn.execute(aSignInCommand());
      await world.changePassword.execute({
        principal: { userId: session.user.id, sessionId: (await world.ports.sessions.findByUser(session.user.id))[0]?.id ?? '' },
        currentPassword: 'analytical engine 1843',
        newPassword: NEW_PASSWORD,
        metadata,
      });
      const error = await rejection(world.confirmPasswordReset.execute({ token, newPassword: 'yet another long passphrase', metadata }));
      expect(issuesOf(error).map((issue) => issue.field)).to.deep.equal(['token']);
    });

    it('refuses a forged, altered, foreign-purpose or empty token, and lists a weak new password in the same answer', async () => {
      const { world, token } = await resetLink();
      const verifyToken = tokenIn(world.mail.delivered.find((mail) => mail.subject === 'Confirm your e-mail address'));
      const altered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
      for (const bad of [altered, verifyToken, 'reset1.garbage', '', 42]) {
        const error = await rejection(world.confirmPasswordReset.execute({ token: bad, newPassword: NEW_PASSWORD, metadata }));
        expect(issuesOf(error).map((issue) => issue.field), String(bad)).to.deep.equal(['token']);
      }
      const both = await rejection(world.confirmPasswordReset.execute({ token: altered, newPassword: 'password123', metadata }));
      expect(issuesOf(both).map((issue) => issue.field)).to.deep.equal(['token', 'newpassword']);
      const weakOnly = await rejection(world.confirmPasswordReset.execute({ token, newPassword: 'short', metadata }));
      expect(issuesOf(weakOnly).map((issue) => issue.field)).to.deep.equal(['newpassword']);
    });
  });

  describe('VerifyEmailHandler, ResendVerificationHandler and REQUIRE_VERIFIED_EMAIL', () => {
    it('sign-up mails a verification link; the link marks the address verified once, and only once', async () => {
      const { world, signedUp } = await worldWithAda();
      expect(signedUp.user.emailverified).to.equal(false);
      await world.deliverMail.execute();
      const token = tokenIn(world.mail.delivered[0]);

      const user = await world.verifyEmail.execute({ token, metadata });

      expect(user.emailverified).to.equal(true);
      expect((await world.users.findById(user.id))?.emailVerified).to.equal(true);
      expect(world.store.events.filter((event) => event.type === 'EmailVerified')).to.have.length(1);
      expect(issuesOf(await rejection(world.verifyEmail.execute({ token, metadata })))).to.deep.equal([{ field: 'token', message: 'is invalid, expired or already used' }]);
    });

    it('refuses a verification token past EMAIL_VERIFICATION_TTL_SECONDS, and a reset token', async () => {
      const { world } = await worldWithAda({ mail: { verificationTtlSeconds: 3600 } });
      await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata });
      await world.deliverMail.execute();
      const resetToken = tokenIn(world.mail.delivered.find((mail) => mail.subject === 'Reset your password'));
      expect(issuesOf(await rejection(world.verifyEmail.execute({ token: resetToken, metadata }))).map((issue) => issue.field)).to.deep.equal(['token']);
      world.clock.advance(3_600_001);
      const token = tokenIn(world.mail.delivered[0]);
      expect(issuesOf(await rejection(world.verifyEmail.execute({ token, metadata }))).map((issue) => issue.field)).to.deep.equal(['token']);
    });

    it('resend asks for another mail with a working link while unverified, and nothing once verified', async () => {
      const { world, signedUp } = await worldWithAda();
      world.clock.advance(1_000);
      await world.resendVerification.execute({ userId: signedUp.user.id, metadata });
      await world.deliverMail.execute();
      expect(world.mail.delivered.map((mail) => mail.subject)).to.deep.equal(['Confirm your e-mail address', 'Confirm your e-mail address']);
      const second = tokenIn(world.mail.delivered[1]);
      expect(second).not.to.equal(tokenIn(world.mail.delivered[0]));
      await world.verifyEmail.execute({ token: second, metadata });

      await world.resendVerification.execute({ userId: signedUp.user.id, metadata });
      await world.deliverMail.execute();
      expect(world.mail.delivered).to.have.length(2);
    });

    it('with requireVerifiedEmail, refuses sign-in of an unverified account only after the right password', async () => {
      const { world } = await worldWithAda({ mail: { requireVerifiedEmail: true } });
      expect(await rejection(world.signIn.execute(aSignInCommand({ password: 'wrong wrong wrong' })))).not.to.be.instanceOf(EmailNotVerified);
      expect(await rejection(world.signIn.execute(aSignInCommand()))).to.be.instanceOf(EmailNotVerified);
      await world.deliverMail.execute();
      await world.verifyEmail.execute({ token: tokenIn(world.mail.delivered[0]), metadata });
      expect((await world.signIn.execute(aSignInCommand())).user.emailverified).to.equal(true);
    });
  });
});
