import { expect } from 'chai';
import type { RecordedEvent } from '../../src/application/ports/event-log.port.js';
import { TotpFactor } from '../../src/domain/second-factor/second-factor.js';
import { TEST_SCHEMA } from '../support/test-schema.js';
import { MFA_CHALLENGES } from '../../src/infrastructure/second-factor/factor-tables.js';
import { StoreSecondFactorRepository } from '../../src/infrastructure/second-factor/store-second-factor.repository.js';
import { sweepExpired } from '../../src/infrastructure/storage/store.js';
import type { StorageFactory, StorageUnderTest } from './storage.contract.js';

const T0 = new Date('2026-11-25T12:00:00.000Z');
let counter = 0;
const uniqueId = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++counter}`;
const NONE: readonly RecordedEvent[] = [];

/** Every store, through the one repository written over the storage primitive: TOTP factors by compare-and-swap. */
export function secondFactorContract(adapter: string, makeStorage: StorageFactory): void {
  describe(`SecondFactorRepository contract: ${adapter}`, () => {
    let storage: StorageUnderTest;
    let factors: StoreSecondFactorRepository;
    beforeEach(async () => {
      storage = await makeStorage();
      factors = new StoreSecondFactorRepository(storage.store);
    });
    afterEach(async () => storage.dispose());

    it('stores a new factor whole, finds it by account, and refuses a second new one for the account', async () => {
      const userId = uniqueId('u');
      expect(await factors.find(userId)).to.equal(null);
      const factor = TotpFactor.enrol(userId, 's1.sealed', T0);
      factor.replaceRecoveryCodes(['mac-1', 'mac-2']);
      expect(await factors.add(factor, NONE)).to.equal(true);
      expect((await factors.find(userId))?.snapshot()).to.deep.equal({ ...factor.snapshot(), version: 0 });
      expect(await factors.add(TotpFactor.enrol(userId, 's1.other', T0), NONE)).to.equal(false);
      expect((await factors.find(userId))?.sealedSecret).to.equal('s1.sealed');
    });

    it('accepts a time step once: of two instances accepting the same step from one load, exactly one writes', async () => {
      const userId = uniqueId('u');
      await factors.add(TotpFactor.enrol(userId, 's1.sealed', T0), NONE);
      const [a, b] = [await factors.find(userId), await factors.find(userId)] as [TotpFactor, TotpFactor];
      expect(a.accept(1000, T0) && b.accept(1000, T0)).to.equal(true);
      const saved = await Promise.all([factors.save(a, NONE), factors.save(b, NONE)]);
      expect(saved.filter(Boolean)).to.have.length(1);
      const reloaded = (await factors.find(userId)) as TotpFactor;
      expect(reloaded.lastStep).to.equal(1000);
      expect(reloaded.accept(1000, T0), 'the step, once stored, is refused on reload').to.equal(false);
    });

    it('spends a recovery code once under concurrency: 100 parallel uses of one code, exactly one success', async () => {
      const userId = uniqueId('u');
      const factor = TotpFactor.enrol(userId, 's1.sealed', T0);
      factor.replaceRecoveryCodes(['mac-1', 'mac-2', 'mac-3']);
      await factors.add(factor, NONE);
      const use = async (): Promise<boolean> => {
        for (;;) {
          const loaded = await factors.find(userId);
          if (!loaded?.useRecoveryCode((mac) => mac === 'mac-2', T0)) return false;
          if (await factors.save(loaded, NONE)) return true;
        }
      };
      const results = await Promise.all(Array.from({ length: 100 }, use));
      expect(results.filter(Boolean)).to.have.length(1);
      expect((await factors.find(userId))?.recoveryCodesLeft).to.equal(2);
    });

    it('removes a factor at its loaded version only', async () => {
      const userId = uniqueId('u');
      await factors.add(TotpFactor.enrol(userId, 's1.sealed', T0), NONE);
      const [stale, fresh] = [await factors.find(userId), await factors.find(userId)] as [TotpFactor, TotpFactor];
      fresh.accept(5, T0);
      expect(await factors.save(fresh, NONE)).to.equal(true);
      expect(await factors.remove(stale, NONE), 'loaded before the change').to.equal(false);
      expect(await factors.remove((await factors.find(userId)) as TotpFactor, NONE)).to.equal(true);
      expect(await factors.find(userId)).to.equal(null);
    });
    it('answers a challenge once: of 20 simultaneous completions of one challenge exactly one commits, and the factor with it', async () => {
      const userId = uniqueId('u');
      await factors.add(TotpFactor.enrol(userId, 's1.sealed', T0), NONE);
      const challenge = { id: uniqueId('c'), userId, epoch: 0, createdAt: T0, expiresAt: new Date(T0.getTime() + 300_000) };
      await factors.openChallenge(challenge);
      const stored = await factors.findChallenge(challenge.id);
      expect(stored).to.deep.equal({ ...challenge, version: 0 });
      const guard = { key: `mfa-challenge:${challenge.id}`, max: 5, windowSeconds: 300 };
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const factor = (await factors.find(userId)) as TotpFactor;
          factor.accept(100 + i, T0);
          return factors.completeChallenge(stored ?? challenge, factor, guard, T0, NONE);
        }),
      );
      expect(outcomes.filter((outcome) => outcome === 'completed')).to.have.length(1);
      expect(await factors.findChallenge(challenge.id)).to.equal(null);
      expect((await factors.find(userId))?.lastStep).to.be.within(100, 119);
    });

    it('refuses to complete a challenge whose cap of attempts is reached, writing nothing', async () => {
      const userId = uniqueId('u');
      await factors.add(TotpFactor.enrol(userId, 's1.sealed', T0), NONE);
      const challenge = { id: uniqueId('c'), userId, epoch: 0, createdAt: T0, expiresAt: new Date(T0.getTime() + 300_000), version: 0 };
      await factors.openChallenge(challenge);
      const guard = { key: `mfa-challenge:${challenge.id}`, max: 1, windowSeconds: 300 };
      const first = (await factors.find(userId)) as TotpFactor;
      first.accept(7, T0);
      await factors.openChallenge({ ...challenge, id: `${challenge.id}-other` });
      expect(await factors.completeChallenge({ ...challenge, id: `${challenge.id}-other` }, first, guard, T0, NONE)).to.equal('completed');
      const second = (await factors.find(userId)) as TotpFactor;
      second.accept(8, T0);
      expect(await factors.completeChallenge(challenge, second, guard, T0, NONE)).to.equal('limited');
      expect((await factors.findChallenge(challenge.id))?.id).to.equal(challenge.id);
      expect((await factors.find(userId))?.lastStep).to.equal(7);
    });
    it('sweeps challenges once expired, and only those', async () => {
      const userId = uniqueId('u');
      const [late, live] = [uniqueId('c'), uniqueId('c')];
      await factors.openChallenge({ id: late, userId, epoch: 0, createdAt: T0, expiresAt: new Date(T0.getTime() + 1_000) });
      await factors.openChallenge({ id: live, userId, epoch: 0, createdAt: T0, expiresAt: new Date(T0.getTime() + 300_000) });
      expect(await sweepExpired(storage.store, MFA_CHALLENGES, T0.getTime() + 1_000, 100)).to.be.at.least(1);
      expect(await factors.findChallenge(late)).to.equal(null);
      expect((await factors.findChallenge(live))?.id).to.equal(live);
      expect(TEST_SCHEMA.expiringTables).to.include(MFA_CHALLENGES);
    });
    it('shows the read side a factor\'s status only: not enrolled while pending, then enrolled with the unused codes', async () => {
      const userId = uniqueId('u');
      expect(await factors.statusOf(userId)).to.deep.equal({ enrolled: false, recoveryCodesLeft: 0 });
      const factor = TotpFactor.enrol(userId, 's1.sealed', T0);
      await factors.add(factor, NONE);
      expect(await factors.statusOf(userId)).to.deep.equal({ enrolled: false, recoveryCodesLeft: 0 });
      const loaded = (await factors.find(userId)) as TotpFactor;
      loaded.accept(7, T0);
      loaded.replaceRecoveryCodes(['mac-1', 'mac-2', 'mac-3']);
      loaded.useRecoveryCode((mac) => mac === 'mac-2', T0);
      await factors.save(loaded, NONE);
      expect(await factors.statusOf(userId)).to.deep.equal({ enrolled: true, recoveryCodesLeft: 2 });
    });
  });
}
