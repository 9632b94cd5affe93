import { expect } from 'chai';
import type { RecordedEvent } from '../../src/application/ports/event-log.port.js';
import { TotpFactor } from '../../src/domain/second-factor.js';
import { StoreSecondFactorRepository } from '../../src/infrastructure/storage/store-second-factor.repository.js';
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
  });
}
