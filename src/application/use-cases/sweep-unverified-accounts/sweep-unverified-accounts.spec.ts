import { expect } from 'chai';
import type { UserRepository } from '../../ports/user-repository.port.js';
import { aRequestMetadata, aSignUpCommand } from '../../../../tests/support/builders.js';
import { inMemoryWorld } from '../../../../tests/support/in-memory-world.js';
import { tokenIn } from '../../../../tests/support/mail-world.js';

const DAY = 86_400_000;
const metadata = aRequestMetadata();

describe('SweepUnverifiedAccountsHandler (UNVERIFIED_ACCOUNT_TTL)', () => {
  it('erases the accounts nobody verified within the TTL, as "not me" does (reason unverified_expired), and keeps the verified and the young', async () => {
    const world = await inMemoryWorld({ mail: { unverifiedAccountTtlSeconds: 7 * 86_400 } });
    const squatted = await world.signUp.execute(aSignUpCommand({ email: 'squatted@example.com' }));
    const verified = await world.signUp.execute(aSignUpCommand({ email: 'owner@example.com' }));
    await world.deliverMail.execute();
    await world.verifyEmail.execute({ token: tokenIn(world.mail.delivered.find((mail) => mail.to === 'owner@example.com')), metadata });
    world.clock.advance(6 * DAY);
    const young = await world.signUp.execute(aSignUpCommand({ email: 'young@example.com' }));

    expect(await world.sweepUnverifiedAccounts.execute(100), 'not before the TTL').to.equal(0);
    world.clock.advance(DAY + 1);
    expect(await world.sweepUnverifiedAccounts.execute(100)).to.equal(1);

    expect(await world.users.findById(squatted.user.id)).to.equal(null);
    expect(await world.users.findByEmail('squatted@example.com'), 'the address is free').to.equal(null);
    expect(await world.users.findById(verified.user.id)).to.not.equal(null);
    expect(await world.users.findById(young.user.id)).to.not.equal(null);
    expect(world.store.events.filter((event) => event.aggregateId === squatted.user.id).map((event) => [event.type, event.payload])).to.deep.equal([['SignUpCancelled', { reason: 'unverified_expired' }]]);
    expect(await world.sweepUnverifiedAccounts.execute(100), 'each once').to.equal(0);
    world.clock.advance(6 * DAY);
    expect(await world.sweepUnverifiedAccounts.execute(100), 'the young one, once old').to.equal(1);
  });

  it('erases nothing with a TTL of 0 (the default without REQUIRE_VERIFIED_EMAIL: such accounts sign in like any other)', async () => {
    const world = await inMemoryWorld({ mail: { unverifiedAccountTtlSeconds: 0 } });
    const account = await world.signUp.execute(aSignUpCommand());
    world.clock.advance(365 * DAY);
    expect(await world.sweepUnverifiedAccounts.execute(100)).to.equal(0);
    expect(await world.users.findById(account.user.id)).to.not.equal(null);
  });

  it('keeps an account whose address is proved by a reset (the mailbox owner took it over)', async () => {
    const world = await inMemoryWorld({ mail: { unverifiedAccountTtlSeconds: 86_400 } });
    const account = await world.signUp.execute(aSignUpCommand());
    await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata });
    await world.deliverMail.execute();
    const token = tokenIn(world.mail.delivered.find((mail) => mail.subject === 'Reset your password'));
    await world.confirmPasswordReset.execute({ token, newPassword: 'difference engine 1822', metadata });
    world.clock.advance(2 * DAY);
    expect(await world.sweepUnverifiedAccounts.execute(100)).to.equal(0);
    expect(await world.users.findById(account.user.id)).to.not.equal(null);
  });

  /**
   * The users port with a hook run once at `when`: after the sweep lists the unverified accounts (before it loads
   * one), or before its erase is committed (after it loaded and decided).
   */
  const hooked = (real: UserRepository, when: 'listed' | 'erasing', hook: { run: (() => Promise<void>) | null }): UserRepository => {
    const once = async () => {
      const run = hook.run;
      hook.run = null;
      await run?.();
    };
    return {
      findByEmail: (email) => real.findByEmail(email),
      findById: (id) => real.findById(id),
      add: (user, events, opened, counted) => real.add(user, events, opened, counted),
      save: (user, events, opened, changed, cleared) => real.save(user, events, opened, changed, cleared),
      erase: async (user, events) => {
        if (when === 'erasing') await once();
        return real.erase(user, events);
      },
      unverifiedBefore: async (cutoff, limit) => {
        const ids = await real.unverifiedBefore(cutoff, limit);
        if (when === 'listed') await once();
        return ids;
      },
    };
  };

  for (const when of ['listed', 'erasing'] as const) {
    it(`keeps an account verified in the sweep's window (${when === 'listed' ? 'listed as unverified, verified before it is loaded' : 'loaded, verified before the erase commits'})`, async () => {
      const hook: { run: (() => Promise<void>) | null } = { run: null };
      const world = await inMemoryWorld({ mail: { unverifiedAccountTtlSeconds: 3600 }, wrap: (ports) => ({ users: hooked(ports.users, when, hook) }) });
      const account = await world.signUp.execute(aSignUpCommand());
      await world.deliverMail.execute();
      const token = tokenIn(world.mail.delivered[0]);
      world.clock.advance(2 * 3_600_000);
      hook.run = async () => {
        await world.verifyEmail.execute({ token, metadata });
      };

      expect(await world.sweepUnverifiedAccounts.execute(100)).to.equal(0);
      expect(hook.run, 'the account was verified in the window').to.equal(null);
      expect((await world.users.findById(account.user.id))?.emailVerified).to.equal(true);
      expect(world.store.events.filter((event) => event.type === 'SignUpCancelled')).to.deep.equal([]);
    });
  }
});
