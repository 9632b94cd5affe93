import { expect } from 'chai';
import { EmailNotVerified } from '../../errors.js';
import { aRequestMetadata, aSignInCommand } from '../../../../tests/support/builders.js';
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

  describe('REQUIRE_VERIFIED_EMAIL at sign-in', () => {
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
