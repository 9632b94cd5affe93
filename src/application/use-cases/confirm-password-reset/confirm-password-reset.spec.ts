import { expect } from 'chai';
import { aRequestMetadata, aSignInCommand, completedSignIn } from '../../../../tests/support/builders.js';
import type { WorldOptions } from '../../../../tests/support/in-memory-world.js';
import { issuesOf, tokenIn, worldWithAda } from '../../../../tests/support/mail-world.js';
import { UuidShapedIds, WriteCountingSessions } from '../../../../tests/support/fakes.js';
import type { SessionRepository } from '../../ports/session-repository.port.js';
import { rejection } from '../../../../tests/support/rejection.js';
import { InvalidRefreshToken } from '../../errors.js';
import { InvalidCredentials } from '../../../domain/domain-error.js';
import { Passkey } from '../../../domain/passkeys/passkey.js';
import { TotpFactor } from '../../../domain/second-factor/second-factor.js';
import { verifyAddress } from '../../../../tests/support/verified.js';

const metadata = aRequestMetadata();
const NEW_PASSWORD = 'difference engine 1822';

async function resetLink(options: WorldOptions = {}) {
  const { world } = await worldWithAda(options);
  await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata });
  await world.deliverMail.execute();
  const token = tokenIn(world.mail.delivered.find((mail) => mail.subject === 'Reset your password'));
  return { world, token };
}

describe('ConfirmPasswordResetHandler', () => {
  it('sets the new password, ends every session of the account, records PasswordReset and mails a notice', async () => {
    const { world, token } = await resetLink({ replace: { ids: new UuidShapedIds() } });
    const other = await completedSignIn(world.signIn.execute(aSignInCommand()));
    const refreshed = await world.refreshSession.execute({ refreshToken: other.refreshToken, metadata });

    const user = await world.confirmPasswordReset.execute({ token, newPassword: NEW_PASSWORD, metadata });

    expect(user.email).to.equal('ada@example.com');
    expect(await world.sessionViews.live(user.id, world.ports.clock.now())).to.deep.equal([]);
    const ended = world.store.events.flatMap((event) => (event.type === 'SessionsEnded' ? [event.payload] : []));
    expect(ended).to.deep.equal([{ email: 'ada@example.com', reason: 'password_changed', keptSessionId: null }]);
    expect(await rejection(world.refreshSession.execute({ refreshToken: refreshed.refreshToken, metadata }))).to.be.instanceOf(InvalidRefreshToken);
    expect(await rejection(completedSignIn(world.signIn.execute(aSignInCommand()))), 'the old password').to.be.instanceOf(InvalidCredentials);
    expect((await completedSignIn(world.signIn.execute(aSignInCommand({ password: NEW_PASSWORD })))).user.id).to.equal(user.id);
    expect(world.store.events.some((event) => event.type === 'PasswordReset')).to.equal(true);
    await world.deliverMail.execute();
    expect(world.mail.delivered.slice(-2).map((mail) => mail.subject), 'the first proof of the address takes the account back').to.have.members(['Your password was changed', 'Your account is yours again']);
  });

  it('accepts a token once: a second use is refused on field token', async () => {
    const { world, token } = await resetLink();
    await world.confirmPasswordReset.execute({ token, newPassword: NEW_PASSWORD, metadata });
    const error = await rejection(world.confirmPasswordReset.execute({ token, newPassword: 'yet another long passphrase', metadata }));
    expect(issuesOf(error)).to.deep.equal([{ field: 'token', code: 'INVALID_OR_EXPIRED', message: 'is invalid, expired or already used' }]);
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
    const session = await completedSignIn(world.signIn.execute(aSignInCommand()));
    await world.changePassword.execute({
      principal: { userId: session.user.id, sessionId: (await world.ports.sessions.findByUser(session.user.id, 0))[0]?.id ?? '', amr: ['pwd'], authTime: null, account: session.user },
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

  it('ends 40 sessions in the one write of the account that stores the new password, writing none of them', async () => {
    let counted = new WriteCountingSessions({} as SessionRepository);
    const { world, token } = await resetLink({ wrap: (ports) => ({ sessions: (counted = new WriteCountingSessions(ports.sessions)) }) });
    for (let i = 0; i < 39; i++) await completedSignIn(world.signIn.execute(aSignInCommand()));

    counted.writes = 0;
    const eventsBefore = world.store.events.length;
    const user = await world.confirmPasswordReset.execute({ token, newPassword: NEW_PASSWORD, metadata });

    expect(counted.writes).to.equal(0);
    expect(world.store.events.slice(eventsBefore).map((event) => event.type), 'the link proved the mailbox').to.deep.equal(['PasswordReset', 'CredentialsRemoved', 'EmailVerified', 'SessionsEnded']);
    expect(user.emailverified).to.equal(true);
    expect(await world.sessionViews.live(user.id, world.ports.clock.now())).to.deep.equal([]);
  });

  describe('a reset that proves the address for the first time takes the account back whole', () => {
    /**
     * A stranger signed up with Ada's address ("Ada" is whoever holds the mailbox) and gathered ways in before anyone
     * proved the address, as an account could before adding them needed a proven address: a confirmed authenticator
     * and a passkey, put through the ports as earlier versions stored them.
     */
    async function squatted() {
      const { world, token } = await resetLink();
      const userId = (await world.users.findByEmail('ada@example.com'))?.id ?? '';
      const at = world.clock.now();
      const factor = TotpFactor.enrol(userId, world.factorSecrets.seal('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', userId), at);
      factor.accept(1, at);
      await world.ports.secondFactors.add(factor, []);
      const passkey = Passkey.register({ id: 'credential-squatter', userId, name: 'Squatter', publicKey: 'public-key-of-credential-squatter', counter: 0, transports: ['internal'], backedUp: false, deviceType: 'singleDevice', createdAt: at });
      expect(await world.ports.passkeys.add(passkey, [])).to.equal('added');
      return { world, token, userId };
    }

    it('removes the factor, its recovery codes and every passkey with the new password, in one commit, and says so by mail', async () => {
      const { world, token, userId } = await squatted();
      expect((await world.ports.mfaStatus.statusOf(userId)).enrolled).to.equal(true);
      await world.confirmPasswordReset.execute({ token, newPassword: NEW_PASSWORD, metadata });

      expect(await world.ports.secondFactors.find(userId), 'the factor').to.equal(null);
      expect(await world.listPasskeys.execute({ userId }), 'the passkeys').to.deep.equal([]);
      const signedIn = await completedSignIn(world.signIn.execute(aSignInCommand({ password: NEW_PASSWORD })));
      expect(signedIn.user.emailverified, 'the password alone signs the owner in').to.equal(true);
      const removed = world.store.events.filter((event) => event.type === 'CredentialsRemoved');
      expect(removed.map((event) => [event.aggregateId, event.payload])).to.deep.equal([[userId, { email: 'ada@example.com', reason: 'address_proven_by_reset' }]]);
      await world.deliverMail.execute();
      expect(world.mail.delivered.map((mail) => mail.subject)).to.include('Your account is yours again');
    });

    it('keeps the factor and passkeys of an account whose address was proven already (a reset by its owner)', async () => {
      const { world, token, userId } = await squatted();
      await verifyAddress(world, userId);
      await world.confirmPasswordReset.execute({ token, newPassword: NEW_PASSWORD, metadata });
      expect((await world.ports.secondFactors.find(userId))?.confirmed).to.equal(true);
      expect(await world.listPasskeys.execute({ userId })).to.have.length(1);
      expect(world.store.events.some((event) => event.type === 'CredentialsRemoved')).to.equal(false);
    });
  });
});
