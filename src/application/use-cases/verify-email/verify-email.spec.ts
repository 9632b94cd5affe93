import { expect } from 'chai';
import { EmailNotVerified, InvalidRefreshToken, InvalidToken } from '../../errors.js';
import { aRequestMetadata, aSignInCommand, completedSignIn } from '../../../../tests/support/builders.js';
import { UuidShapedIds } from '../../../../tests/support/fakes.js';
import { issuesOf, tokenIn, worldWithAda } from '../../../../tests/support/mail-world.js';
import { rejection } from '../../../../tests/support/rejection.js';

const metadata = aRequestMetadata();

describe('VerifyEmailHandler', () => {
  it('sign-up mails a verification link; the link marks the address verified once, and only once', async () => {
    const { world, signedUp } = await worldWithAda();
    expect(signedUp.user.emailverified).to.equal(false);
    await world.deliverMail.execute();
    const token = tokenIn(world.mail.delivered[0]);

    const user = await world.verifyEmail.execute({ token, metadata });

    expect(user.emailverified).to.equal(true);
    expect((await world.users.findById(user.id))?.emailVerified).to.equal(true);
    expect(world.store.events.filter((event) => event.type === 'EmailVerified')).to.have.length(1);
    expect(issuesOf(await rejection(world.verifyEmail.execute({ token, metadata })))).to.deep.equal([{ field: 'token', code: 'INVALID_OR_EXPIRED', message: 'is invalid, expired or already used' }]);
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

  describe('REQUIRE_VERIFIED_EMAIL at sign-in', () => {
    it('with requireVerifiedEmail, refuses sign-in of an unverified account only after the right password', async () => {
      const { world } = await worldWithAda({ mail: { requireVerifiedEmail: true } });
      expect(await rejection(completedSignIn(world.signIn.execute(aSignInCommand({ password: 'wrong wrong wrong' }))))).not.to.be.instanceOf(EmailNotVerified);
      expect(await rejection(completedSignIn(world.signIn.execute(aSignInCommand())))).to.be.instanceOf(EmailNotVerified);
      await world.deliverMail.execute();
      await world.verifyEmail.execute({ token: tokenIn(world.mail.delivered[0]), metadata });
      expect((await completedSignIn(world.signIn.execute(aSignInCommand()))).user.emailverified).to.equal(true);
    });

    it('with requireVerifiedEmail, the session sign-up opens is good for nothing but asking for another verification mail', async () => {
      const { world, signedUp } = await worldWithAda({ mail: { requireVerifiedEmail: true }, replace: { ids: new UuidShapedIds() } });
      expect(await rejection(world.authenticate.execute({ accessToken: signedUp.accessToken }))).to.be.instanceOf(EmailNotVerified);
      expect(await rejection(world.refreshSession.execute({ refreshToken: signedUp.refreshToken, metadata }))).to.be.instanceOf(EmailNotVerified);
      const principal = await world.authenticate.execute({ accessToken: signedUp.accessToken, allowUnverified: true });
      expect(principal.userId).to.equal(signedUp.user.id);
    });

    it('with requireVerifiedEmail, verifying the address ends every session opened before it (whoever signed up with it)', async () => {
      const { world, signedUp } = await worldWithAda({ mail: { requireVerifiedEmail: true }, replace: { ids: new UuidShapedIds() } });
      await world.deliverMail.execute();
      await world.verifyEmail.execute({ token: tokenIn(world.mail.delivered[0]), metadata });

      expect(await rejection(world.authenticate.execute({ accessToken: signedUp.accessToken, allowUnverified: true }))).to.be.instanceOf(InvalidToken);
      expect(await rejection(world.refreshSession.execute({ refreshToken: signedUp.refreshToken, metadata }))).to.be.instanceOf(InvalidRefreshToken);
      const ended = world.store.events.filter((event) => event.type === 'SessionsEnded').map((event) => (event.payload as { reason: string }).reason);
      expect(ended).to.deep.equal(['email_verified']);
      const signedIn = await completedSignIn(world.signIn.execute(aSignInCommand()));
      expect((await world.authenticate.execute({ accessToken: signedIn.accessToken })).userId).to.equal(signedUp.user.id);
    });

    it('without it, the session sign-up opens works at once and outlives the verification', async () => {
      const { world, signedUp } = await worldWithAda({ replace: { ids: new UuidShapedIds() } });
      expect((await world.authenticate.execute({ accessToken: signedUp.accessToken })).userId).to.equal(signedUp.user.id);
      await world.deliverMail.execute();
      await world.verifyEmail.execute({ token: tokenIn(world.mail.delivered[0]), metadata });
      expect((await world.authenticate.execute({ accessToken: signedUp.accessToken })).userId).to.equal(signedUp.user.id);
    });
  });
});
