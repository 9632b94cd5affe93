import { setImmediate as nextTurn } from 'node:timers/promises';
import { expect } from 'chai';
import { oncePerTurn } from '../../../src/infrastructure/storage/store.js';

describe('oncePerTurn (how the LMDB store renews its read snapshot)', () => {
  it('runs its action once however often it is called within one turn of the event loop, and again in the next turn', async () => {
    let runs = 0;
    const renew = oncePerTurn(() => (runs += 1));
    renew();
    renew();
    await Promise.resolve();
    renew();
    expect(runs, 'one turn, microtasks included').to.equal(1);
    await nextTurn();
    renew();
    renew();
    expect(runs, 'the next turn').to.equal(2);
  });
});
