import { expect } from 'chai';
import { InvalidToken } from '../../errors.js';
import type { ActivityEntry, ActivityReadModel } from '../../ports/activity-read-model.port.js';
import { aRequestMetadata, aSignInCommand, aSignUpCommand, completedSignIn } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { rejection } from '../../../../tests/support/rejection.js';
import { EXPORT_ACTIVITY_MAX } from './export-account.handler.js';
import { withSecondFactor } from '../../../../tests/support/totp.js';
import { withPasskeys } from '../../../../tests/support/passkeys.js';

/** A working activity read model over `count` entries, newest first, paged by offset. */
const activityOf = (count: number): ActivityReadModel => ({
  page: (_userId, { limit, cursor }) => {
    const from = cursor === null ? 0 : Number(cursor);
    const to = Math.min(count, from + limit);
    const entries: ActivityEntry[] = Array.from({ length: to - from }, (_, i) => ({
      type: 'user_signed_in', occurredAt: new Date(Date.UTC(2026, 0, 1) - (from + i) * 1000), clientIp: null, userAgent: null,
    }));
    return Promise.resolve({ entries, nextCursor: to < count ? String(to) : null });
  },
});

describe('ExportAccountHandler (exportAccount)', () => {
  it("exports the account, its live sessions and its own activity newest first, and nothing secret", async () => {
    const world = await inMemoryWorld();
    const signedUp = await world.signUp.execute(aSignUpCommand({ metadata: aRequestMetadata({ userAgent: 'laptop' }) }));
    const { user } = signedUp;
    world.clock.advance(60_000);
    await rejection(completedSignIn(world.signIn.execute(aSignInCommand({ password: 'not the password' }))));
    world.clock.advance(60_000);
    const signedIn = await completedSignIn(world.signIn.execute(aSignInCommand({ metadata: aRequestMetadata({ userAgent: 'phone' }) })));
    await world.signUp.execute(aSignUpCommand({ email: 'grace@example.com' }));

    const exported = await world.exportAccount.execute({ userId: user.id });

    expect(exported.user).to.deep.equal(user);
    expect(exported.exportedAt).to.deep.equal(world.clock.now());
    expect(exported.sessions.map((session) => session.userAgent)).to.deep.equal(['phone', 'laptop']);
    expect(exported.activity.map((entry) => entry.type)).to.deep.equal(['session_started', 'user_signed_in', 'sign_in_failed', 'session_started', 'email_verification_requested', 'user_registered']);
    expect(exported.activityTruncated).to.equal(false);
    const text = JSON.stringify(exported);
    expect(text).to.not.include('grace@example.com');
    for (const secret of [aSignUpCommand().password as string, 'fake$', signedUp.accessToken, signedUp.refreshToken, signedIn.refreshToken]) {
      expect(text).to.not.include(secret);
    }
  });

  it('leaves out ended sessions', async () => {
    const world = await inMemoryWorld();
    const first = await world.signUp.execute(aSignUpCommand());
    const second = await completedSignIn(world.signIn.execute(aSignInCommand()));
    await world.signOut.execute({ principal: await world.authenticate.execute({ accessToken: first.accessToken }), scope: 'local', metadata: aRequestMetadata() });

    const exported = await world.exportAccount.execute({ userId: first.user.id });

    const live = await world.authenticate.execute({ accessToken: second.accessToken });
    expect(exported.sessions.map((session) => session.id)).to.deep.equal([live.sessionId]);
  });

  it(`holds at most ${EXPORT_ACTIVITY_MAX} activity entries, the newest, and says when older ones exist`, async () => {
    const world = await inMemoryWorld({ replace: { activity: activityOf(EXPORT_ACTIVITY_MAX + 150) } });
    const { user } = await world.signUp.execute(aSignUpCommand());

    const exported = await world.exportAccount.execute({ userId: user.id });

    expect(exported.activity).to.have.length(EXPORT_ACTIVITY_MAX);
    expect(exported.activity[0]?.occurredAt.getTime()).to.be.greaterThan(exported.activity.at(-1)!.occurredAt.getTime());
    expect(exported.activityTruncated).to.equal(true);
  });

  it('exports all of exactly the maximum without calling it truncated', async () => {
    const world = await inMemoryWorld({ replace: { activity: activityOf(EXPORT_ACTIVITY_MAX) } });
    const { user } = await world.signUp.execute(aSignUpCommand());

    const exported = await world.exportAccount.execute({ userId: user.id });

    expect(exported.activity).to.have.length(EXPORT_ACTIVITY_MAX);
    expect(exported.activityTruncated).to.equal(false);
  });

  it('refuses a subject that no longer exists with InvalidToken', async () => {
    expect(await rejection((await inMemoryWorld()).exportAccount.execute({ userId: 'no-such-user' }))).to.be.instanceOf(InvalidToken);
  });

  it('exports the account\'s credentials as their tables declare them: the passkeys and the factor, never a key, secret or code', async () => {
    const { world, secret, recoveryCodes, userId } = await withSecondFactor();
    const empty = await world.exportAccount.execute({ userId: (await world.signUp.execute(aSignUpCommand({ email: 'grace@example.com' }))).user.id });
    expect(empty.records).to.deep.equal({ 'totp-factors': [], passkeys: [], identities: [], 'pending-email-changes': [], 'revertible-email-changes': [], 'oidc-account-state': [], operators: [] });

    const exported = await world.exportAccount.execute({ userId });

    expect(exported.records['totp-factors']).to.deep.equal([{ kind: 'totp', createdAt: exported.records['totp-factors']?.[0]?.['createdAt'], confirmedAt: exported.records['totp-factors']?.[0]?.['confirmedAt'], recoveryCodesLeft: 10 }]);
    expect(exported.records['totp-factors']?.[0]?.['confirmedAt']).to.be.instanceOf(Date);
    expect(exported.records['passkeys']).to.deep.equal([]);
    const stored = (await world.ports.secondFactors.find(userId))?.snapshot();
    const text = JSON.stringify(exported);
    for (const hidden of [secret, stored?.sealedSecret ?? 'sealed', ...recoveryCodes, ...(stored?.recoveryCodes.map((code) => code.mac) ?? [])]) expect(text).to.not.include(hidden);
  });

  it('lists the passkeys with their names and dates, not their public keys', async () => {
    const { world, userId, register } = await withPasskeys();
    const added = await register({}, undefined, 'Laptop');
    const { records } = await world.exportAccount.execute({ userId });
    expect(records['passkeys']).to.deep.equal([{ id: added.id, name: 'Laptop', createdAt: added.createdAt, lastUsedAt: null, transports: ['internal'], backedUp: false, deviceType: 'singleDevice' }]);
    expect(JSON.stringify(records)).to.not.include('public-key-of');
  });
});
