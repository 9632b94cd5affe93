import { expect } from 'chai';
import fc from 'fast-check';
import { InvalidCredentials, TooManyAttempts } from '../../../src/domain/domain-error.js';
import type { Changes, Store } from '../../../src/infrastructure/storage/store.js';
import { aRequestMetadata, aSignInCommand, aSignUpCommand, completedSignIn, aHolderProof } from '../../support/builders.js';
import { tokenIn, worldWithAda } from '../../support/mail-world.js';
import { withSecondFactor } from '../../support/totp.js';
import { inMemoryWorld } from '../../support/in-memory-world.js';
import { withPasskeys } from '../../support/passkeys.js';
import { InvalidToken, LastSignInMethod } from '../../../src/application/errors.js';
import { rejection } from '../../support/rejection.js';
import { UuidShapedIds } from '../../support/fakes.js';
import { PASSKEYS_PER_ACCOUNT_MAX } from '../../../src/application/passkeys/ports/passkey-repository.port.js';
import type { User } from '../../../src/domain/user.js';

/** The store with every call's start and result ordered by fast-check's scheduler: reads and commits interleave as it chooses. */
const scheduled = (s: fc.Scheduler) => (store: Store): Store => ({
  get: (table, key) => s.schedule(Promise.resolve(), 'get').then(() => s.schedule(store.get(table, key), 'got')),
  range: (table, index, query) => s.schedule(Promise.resolve(), 'range').then(() => store.range(table, index, query)),
  count: (table, index, prefix) => s.schedule(Promise.resolve(), 'count').then(() => store.count(table, index, prefix)),
  commit: (changes) => s.schedule(Promise.resolve(), 'commit').then(() => store.commit(changes)),
});

/** `scheduled`, once armed: what a test sets up before it runs straight through. */
const armable = (s: fc.Scheduler, armed: { on: boolean }) => (store: Store): Store => {
  const ordered = scheduled(s)(store);
  return {
    get: (table, key) => (armed.on ? ordered.get(table, key) : store.get(table, key)),
    range: (table, index, query) => (armed.on ? ordered.range(table, index, query) : store.range(table, index, query)),
    count: (table, index, prefix) => (armed.on ? ordered.count(table, index, prefix) : store.count(table, index, prefix)),
    commit: (changes) => (armed.on ? ordered.commit(changes) : store.commit(changes)),
  };
};

/** Runs `work` with the store's calls ordered by the scheduler (armed), waits for it, then disarms. */
const whileArmed = async <T>(s: fc.Scheduler, armed: { on: boolean }, work: () => Promise<T>): Promise<T> => {
  armed.on = true;
  try {
    return await s.waitFor(work());
  } finally {
    armed.on = false;
  }
};

/** `armable`, logging while armed what `label` makes of each committed change set (nothing when it gives null): the commit order. */
const logged = (s: fc.Scheduler, armed: { on: boolean }, committed: string[], label: (changes: Changes) => readonly string[]) => (store: Store): Store => {
  const inner = armable(s, armed)(store);
  return {
    ...inner,
    commit: async (changes) => {
      const outcome = await inner.commit(changes);
      if (outcome.status === 'committed' && armed.on) committed.push(...label(changes));
      return outcome;
    },
  };
};

const outcome = (settled: PromiseSettledResult<unknown>): string =>
  settled.status === 'fulfilled' ? 'ok' : settled.reason instanceof InvalidCredentials ? '401' : settled.reason instanceof TooManyAttempts ? '429' : String(settled.reason);

describe('Limits under every interleaving (fast-check scheduler over the in-memory store)', () => {
  it('simultaneous wrong sign-ins: exactly the cap answered 401 and recorded, every other one 429', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 1, max: 8 }), async (s, attempts) => {
        const world = await inMemoryWorld({ signInThrottle: { maxFailures: 3, windowSeconds: 900 }, store: scheduled(s) });
        await s.waitFor(world.signUp.execute(aSignUpCommand()));
        const tries = Array.from({ length: attempts }, (_, i) => world.signIn.execute(aSignInCommand({ password: `wrong password ${i}` })));
        const outcomes = (await s.waitFor(Promise.allSettled(tries))).map(outcome);
        expect(outcomes.filter((o) => o === '401'), outcomes.join(' ')).to.have.length(Math.min(3, attempts));
        expect(outcomes.filter((o) => o === '429')).to.have.length(Math.max(0, attempts - 3));
        expect(world.store.events.filter((event) => event.type === 'SignInFailed')).to.have.length(Math.min(3, attempts));
      }),
      { numRuns: 100 },
    );
  });

  it('a right password among simultaneous wrong ones: at most the cap of failures counted on either side of its success', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 0, max: 7 }), async (s, right) => {
        const world = await inMemoryWorld({ signInThrottle: { maxFailures: 3, windowSeconds: 900 }, store: scheduled(s) });
        await s.waitFor(world.signUp.execute(aSignUpCommand()));
        const tries = Array.from({ length: 8 }, (_, i) => world.signIn.execute(aSignInCommand(i === right ? {} : { password: `wrong password ${i}` })));
        const outcomes = (await s.waitFor(Promise.allSettled(tries))).map(outcome);
        expect(outcomes.every((o) => ['ok', '401', '429'].includes(o)), outcomes.join(' ')).to.equal(true);
        const types = world.store.events.map((event) => event.type).filter((type) => type === 'SignInFailed' || type === 'UserSignedIn');
        const success = types.indexOf('UserSignedIn');
        const [before, after] = success < 0 ? [types, []] : [types.slice(0, success), types.slice(success + 1)];
        expect(before.length, types.join(' ')).to.be.at.most(3);
        expect(after.length, types.join(' ')).to.be.at.most(3);
        expect(outcomes.filter((o) => o === '401')).to.have.length(before.length + after.length);
      }),
      { numRuns: 100 },
    );
  });

  it('simultaneous verification resends: exactly the cap of verification mails recorded, the sign-up\'s included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 1, max: 8 }), async (s, resends) => {
        const world = await inMemoryWorld({ store: scheduled(s) });
        const userId = (await s.waitFor(world.signUp.execute(aSignUpCommand()))).user.id;
        await s.waitFor(Promise.all(Array.from({ length: resends }, () => world.resendVerification.execute({ userId, metadata: aRequestMetadata() }))));
        const requested = world.store.events.filter((event) => event.type === 'EmailVerificationRequested');
        expect(requested).to.have.length(Math.min(3, 1 + resends));
      }),
      { numRuns: 100 },
    );
  });

  it('simultaneous passkey registrations at one below the cap: exactly one stored', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 2, max: 5 }), async (s, registrations) => {
        const armed = { on: false };
        const { world, principal, metadata, register } = await withPasskeys({ store: armable(s, armed) });
        for (let i = 1; i < PASSKEYS_PER_ACCOUNT_MAX; i++) await register();
        const challenges = await Promise.all(Array.from({ length: registrations }, async () => String((await world.passkeyRegistrationOptions.execute(aHolderProof(principal)))['challenge'])));
        const settled = await whileArmed(s, armed, () => Promise.allSettled(challenges.map((challenge, i) => world.addPasskey.execute({ principal, response: { id: `credential-interleaved-${i}`, challenge }, metadata }))));
        expect(settled.filter((answer) => answer.status === 'fulfilled'), settled.map((answer) => answer.status).join(' ')).to.have.length(1);
        expect(await world.listPasskeys.execute({ userId: principal.userId })).to.have.length(PASSKEYS_PER_ACCOUNT_MAX);
      }),
      { numRuns: 50 },
    );
  });

  it('simultaneous confirmations of one password reset link: exactly one sets a password, and only that one signs in', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 2, max: 4 }), async (s, confirmations) => {
        const armed = { on: false };
        const { world } = await worldWithAda({ store: armable(s, armed) });
        await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata: aRequestMetadata() });
        await world.deliverMail.execute();
        const token = tokenIn(world.mail.delivered.find((mail) => mail.subject === 'Reset your password'));
        const passwords = Array.from({ length: confirmations }, (_, i) => `difference engine number ${i}`);
        const settled = await whileArmed(s, armed, () => Promise.allSettled(passwords.map((newPassword) => world.confirmPasswordReset.execute({ token, newPassword, metadata: aRequestMetadata() }))));
        const set = passwords.filter((_, i) => settled[i]?.status === 'fulfilled');
        expect(set, settled.map((answer) => answer.status).join(' ')).to.have.length(1);
        expect(world.store.events.filter((event) => event.type === 'PasswordReset')).to.have.length(1);
        const signIns = await Promise.allSettled(passwords.map((password) => completedSignIn(world.signIn.execute(aSignInCommand({ password })))));
        expect(passwords.filter((_, i) => signIns[i]?.status === 'fulfilled')).to.deep.equal(set);
      }),
      { numRuns: 50 },
    );
  });

  it('simultaneous answers of one right code: on one challenge, one session; on two challenges, the code used once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.boolean(), async (s, twoChallenges) => {
        const armed = { on: false };
        const { world, challenge, code, metadata } = await withSecondFactor({ store: armable(s, armed) });
        const first = await challenge();
        const tokens = [first, twoChallenges ? await challenge() : first];
        const answer = code();
        const settled = await whileArmed(s, armed, () => Promise.allSettled(tokens.map((mfaToken) => world.signInMfa.execute({ mfaToken, code: answer, metadata }))));
        expect(settled.filter((outcome) => outcome.status === 'fulfilled'), settled.map((outcome) => outcome.status).join(' ')).to.have.length(1);
        expect(world.store.events.filter((event) => event.type === 'UserSignedIn')).to.have.length(1);
      }),
      { numRuns: 100 },
    );
  });

  it('a refresh racing a sign-out of every session: no rotation is written after the epoch moved, and nothing of the account is live', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const armed = { on: false };
        const committed: string[] = [];
        let refreshed = '';
        const puts = (changes: Changes) => (changes.changes ?? []).filter((change) => change.kind === 'put');
        const world = await inMemoryWorld({
          replace: { ids: new UuidShapedIds() },
          store: logged(s, armed, committed, (changes) => [
            ...(puts(changes).some((change) => change.table.name === 'users') ? ['epoch'] : []),
            ...(puts(changes).some((change) => change.table.name === 'sessions' && change.key === refreshed) ? ['rotation'] : []),
          ]),
        });
        const signedUp = await world.signUp.execute(aSignUpCommand());
        const principal = await world.authenticate.execute({ accessToken: signedUp.accessToken });
        const other = await completedSignIn(world.signIn.execute(aSignInCommand()));
        refreshed = other.refreshToken.split('.')[1] ?? '';
        const [signOut, refresh] = await whileArmed(s, armed, () => Promise.allSettled([
          world.signOut.execute({ principal, scope: 'global', metadata: aRequestMetadata() }),
          world.refreshSession.execute({ refreshToken: other.refreshToken, metadata: aRequestMetadata() }),
        ]));
        expect(signOut?.status).to.equal('fulfilled');
        expect(committed.slice(committed.indexOf('epoch')), committed.join(' ')).to.deep.equal(['epoch']);
        expect(committed.includes('rotation')).to.equal(refresh?.status === 'fulfilled');
        expect(await world.sessionViews.live(signedUp.user.id, world.clock.now()), `refresh ${refresh?.status}`).to.deep.equal([]);
        if (refresh?.status === 'fulfilled') expect(await rejection(world.authenticate.execute({ accessToken: refresh.value.accessToken }))).to.be.instanceOf(InvalidToken);
      }),
      { numRuns: 100 },
    );
  });

  it('a sign-in with the old password racing a password change: afterwards only the changer\'s session is live', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const armed = { on: false };
        const world = await inMemoryWorld({ store: armable(s, armed) });
        const signedUp = await world.signUp.execute(aSignUpCommand());
        const principal = await world.authenticate.execute({ accessToken: signedUp.accessToken });
        const [change, signIn] = await whileArmed(s, armed, () => Promise.allSettled([
          world.changePassword.execute({ principal, currentPassword: aSignUpCommand().password, newPassword: 'difference engine 1822', metadata: aRequestMetadata() }),
          completedSignIn(world.signIn.execute(aSignInCommand())),
        ]));
        expect(change?.status).to.equal('fulfilled');
        const live = (await world.sessionViews.live(signedUp.user.id, world.clock.now())).map((session) => session.id);
        expect(live, `sign-in ${signIn?.status}`).to.deep.equal([principal.sessionId]);
      }),
      { numRuns: 100 },
    );
  });

  it('simultaneous sign-ins to an account at its session cap: afterwards it holds at most the cap', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 2, max: 5 }), async (s, signIns) => {
        const armed = { on: false };
        const world = await inMemoryWorld({ store: armable(s, armed), sessions: { maxPerAccount: 3 } });
        const userId = (await world.signUp.execute(aSignUpCommand())).user.id;
        for (let i = 0; i < 2; i++) await completedSignIn(world.signIn.execute(aSignInCommand()));
        const settled = await whileArmed(s, armed, () => Promise.allSettled(Array.from({ length: signIns }, () => completedSignIn(world.signIn.execute(aSignInCommand())))));
        expect(settled.map((outcome) => outcome.status)).to.deep.equal(settled.map(() => 'fulfilled'));
        const live = await world.sessionViews.live(userId, world.clock.now());
        expect(live.length, `${signIns} sign-ins`).to.be.at.most(3);
      }),
      { numRuns: 100 },
    );
  });

  it('simultaneous refreshes of one refresh token: one rotation, and every answer carries its successor', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 2, max: 5 }), async (s, refreshes) => {
        const armed = { on: false };
        const world = await inMemoryWorld({ store: armable(s, armed), replace: { ids: new UuidShapedIds() } });
        const { refreshToken } = await world.signUp.execute(aSignUpCommand());
        const settled = await whileArmed(s, armed, () => Promise.allSettled(Array.from({ length: refreshes }, () => world.refreshSession.execute({ refreshToken, metadata: aRequestMetadata() }))));
        const successors = settled.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.refreshToken : String(outcome.reason)));
        expect(new Set(successors).size, successors.join(' ')).to.equal(1);
        expect(successors[0]).to.match(/^rt1\.[0-9a-f-]{36}\.1\./);
        expect(world.store.events.filter((event) => event.type === 'RefreshTokenReused')).to.have.length(0);
      }),
      { numRuns: 100 },
    );
  });

  it('a recovery code answered while new codes are made: it signs in only if its use is committed before the old codes end', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const armed = { on: false };
        const committed: string[] = [];
        const { world, recoveryCodes, challenge, steppedUp, metadata } = await withSecondFactor({
          store: logged(s, armed, committed, (changes) =>
            (changes.events ?? []).map((event): string => event.type).filter((type) => type === 'RecoveryCodeUsed' || type === 'RecoveryCodesRegenerated')),
        });
        const { principal } = await steppedUp();
        const mfaToken = await challenge();
        const [regenerated, used] = await whileArmed(s, armed, () => Promise.allSettled([
          world.regenerateRecoveryCodes.execute({ principal, metadata }),
          world.signInMfa.execute({ mfaToken, recoveryCode: recoveryCodes[0], metadata }),
        ]));
        expect(regenerated?.status).to.equal('fulfilled');
        const order = committed.join(' ');
        expect(used?.status === 'fulfilled', `${order}: ${used?.status}`).to.equal(order === 'RecoveryCodeUsed RecoveryCodesRegenerated');
      }),
      { numRuns: 100 },
    );
  });

  it("simultaneous removals of a passwordless account's last two passkeys: one removed, the other refused as the last way in", async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const armed = { on: false };
        const { world, principal, metadata, register, userId } = await withPasskeys({ store: armable(s, armed) });
        const passkeys = [await register(), await register()];
        const user = (await world.ports.users.findById(userId)) as User;
        user.changePassword('', world.clock.now());
        expect(await world.ports.users.save(user, []), 'made passwordless').to.equal(true);
        const settled = await whileArmed(s, armed, () => Promise.allSettled(passkeys.map((passkey) => world.removePasskey.execute({ principal, id: passkey.id, metadata }))));
        expect(settled.map((answer) => (answer.status === 'fulfilled' ? 'removed' : answer.reason instanceof LastSignInMethod ? 'last' : String(answer.reason))).sort()).to.deep.equal(['last', 'removed']);
        expect(await world.listPasskeys.execute({ userId })).to.have.length(1);
      }),
      { numRuns: 100 },
    );
  });
});
