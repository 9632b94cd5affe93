import { setImmediate as nextTurn } from 'node:timers/promises';
import { expect } from 'chai';
import { oncePerTask } from '../../../src/infrastructure/storage/store.js';

describe('oncePerTask (how the LMDB store renews its read snapshot)', () => {
  it('runs its action once for the reads one task issues together, and again in any later task', async () => {
    let runs = 0;
    const renew = oncePerTask(() => (runs += 1));
    renew();
    renew();
    expect(runs, 'reads issued together').to.equal(1);
    await nextTurn();
    renew();
    expect(runs, 'a later task').to.equal(2);
    setImmediate(renew);
    setTimeout(renew, 0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(runs, 'an immediate and a timer: a task each').to.equal(4);
  });
});
