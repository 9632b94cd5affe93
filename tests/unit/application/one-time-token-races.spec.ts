import { expect } from 'chai';
import fc from 'fast-check';
import { InvalidInput } from '../../../src/domain/domain-error.js';
import type { Store } from '../../../src/infrastructure/storage/store.js';
import { aRequestMetadata, aSignUpCommand } from '../../support/builders.js';
import { inMemoryWorld } from '../../support/in-memory-world.js';
import { tokenIn } from '../../support/mail-world.js';

const metadata = aRequestMetadata();
const HOUR = 3_600_000;
const REFUSED = [{ field: 'token', code: 'INVALID_OR_EXPIRED', message: 'is invalid, expired or already used' }];

/** The store with every call's start and result ordered by fast-check's scheduler: reads and commits interleave as it chooses. */
const scheduled = (s: fc.Scheduler, armed: { on: boolean }) => (store: Store): Store => ({
  get: (table, key) => (armed.on ? s.schedule(Promise.resolve(), 'get').then(() => s.schedule(store.get(table, key), 'got')) : store.get(table, key)),
  range: (table, index, query) => (armed.on ? s.schedule(Promise.resolve(), 'range').then(() => store.range(table, index, query)) : store.range(table, index, query)),
  count: (table, index, prefix) => (armed.on ? s.schedule(Promise.resolve(), 'count').then(() => store.count(table, index, prefix)) : store.count(table, index, prefix)),
  commit: (changes) => (armed.on ? s.schedule(Promise.resolve(), 'commit').then(() => store.commit(changes)) : store.commit(changes)),
});

/** 'ok' for a success, 'refused' for the token's one issue; anything else (a 5xx in HTTP) as its text, so a test shows it. */
const outcome = (settled: PromiseSettledResult<unknown>): string => {
  if (settled.status === 'fulfilled') return 'ok';
  const reason: unknown = settled.reason;
  return reason instanceof InvalidInput && JSON.stringify(reason.issues) === JSON.stringify(REFUSED) ? 'refused' : String(reason);
};

/**
 * Ada signed up two hours ago, past the unverified-account TTL (one hour), so the sweep is due for her; her
 * verification link and a reset link mailed now are delivered. `race(work)`: runs `work` with the store's calls
 * ordered by the scheduler, then lets the test read the store straight.
 */
async function adaDueForTheSweep(s: fc.Scheduler) {
  const armed = { on: false };
  const world = await inMemoryWorld({ mail: { unverifiedAccountTtlSeconds: 3600 }, store: scheduled(s, armed) });
  const signedUp = await world.signUp.execute(aSignUpCommand());
  world.clock.advance(2 * HOUR);
  await world.requestPasswordReset.execute({ email: 'ada@example.com', metadata });
  await world.deliverMail.execute();
  const verification = tokenIn(world.mail.delivered.find((mail) => mail.subject === 'Confirm your e-mail address'));
  const reset = tokenIn(world.mail.delivered.find((mail) => mail.subject === 'Reset your password'));
  const race = async <T>(work: () => Promise<T>): Promise<T> => {
    armed.on = true;
    try {
      return await s.waitFor(work());
    } finally {
      armed.on = false;
    }
  };
  return { world, userId: signedUp.user.id, verification, reset, race };
}

const sweep = (world: Awaited<ReturnType<typeof inMemoryWorld>>) => world.sweepUnverifiedAccounts.execute(100);
/** 'erased' when the sweep erased Ada, 'kept' when it erased nothing; a failure as its text. */
const sweepOutcome = (settled: PromiseSettledResult<number>): string =>
  settled.status === 'rejected' ? String(settled.reason) : settled.value === 1 ? 'erased' : settled.value === 0 ? 'kept' : `erased ${settled.value}`;

describe('One-time tokens under every interleaving (fast-check scheduler over the in-memory store): the loser is refused, never a crash', () => {
  it('confirm and "not me" with one token: exactly one takes effect, the other gets the token refused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.boolean(), async (s, cancelFirst) => {
        const { world, userId, verification: token, race } = await adaDueForTheSweep(s);
        const verify = () => world.verifyEmail.execute({ token, metadata });
        const cancel = () => world.cancelSignUp.execute({ token, metadata });
        const settled = await race(() => Promise.allSettled(cancelFirst ? [cancel(), verify()] : [verify(), cancel()]));
        const [cancelled, verified] = (cancelFirst ? settled : [...settled].reverse()).map(outcome);
        expect([verified, cancelled].sort(), `verify ${verified}, cancel ${cancelled}`).to.deep.equal(['ok', 'refused']);
        const user = await world.users.findById(userId);
        expect(user?.emailVerified ?? 'erased').to.equal(verified === 'ok' ? true : 'erased');
      }),
      { numRuns: 100 },
    );
  });

  it('confirm and the unverified-account sweep: the account is verified and kept, or erased and the token refused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const { world, userId, verification: token, race } = await adaDueForTheSweep(s);
        const [verified, swept] = await race(() => Promise.allSettled([world.verifyEmail.execute({ token, metadata }), sweep(world)]));
        const outcomes = [outcome(verified), sweepOutcome(swept)];
        expect([['ok', 'kept'], ['refused', 'erased']], outcomes.join(', ')).to.deep.include(outcomes);
        expect((await world.users.findById(userId))?.emailVerified ?? 'erased').to.equal(outcomes[0] === 'ok' ? true : 'erased');
      }),
      { numRuns: 100 },
    );
  });

  it('a reset confirmed as the sweep runs: the account is taken back and kept, or erased and the token refused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const { world, userId, reset: token, race } = await adaDueForTheSweep(s);
        const confirm = () => world.confirmPasswordReset.execute({ token, newPassword: 'difference engine 1822', metadata });
        const [confirmed, swept] = await race(() => Promise.allSettled([confirm(), sweep(world)]));
        const outcomes = [outcome(confirmed), sweepOutcome(swept)];
        expect([['ok', 'kept'], ['refused', 'erased']], outcomes.join(', ')).to.deep.include(outcomes);
        expect((await world.users.findById(userId))?.emailVerified ?? 'erased').to.equal(outcomes[0] === 'ok' ? true : 'erased');
      }),
      { numRuns: 100 },
    );
  });

  it('two confirmations of one reset token: one sets its password, the other gets the token refused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const { world, reset: token, race } = await adaDueForTheSweep(s);
        const confirm = (newPassword: string) => world.confirmPasswordReset.execute({ token, newPassword, metadata });
        const outcomes = (await race(() => Promise.allSettled([confirm('first new password 1'), confirm('second new password 2')]))).map(outcome);
        expect(outcomes.sort(), outcomes.join(', ')).to.deep.equal(['ok', 'refused']);
        expect(world.store.events.filter((event) => event.type === 'PasswordReset')).to.have.length(1);
      }),
      { numRuns: 100 },
    );
  });
});
