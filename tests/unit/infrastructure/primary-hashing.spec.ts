import { expect } from 'chai';
import { ServiceUnavailable } from '../../../src/application/errors.js';
import { PlainPassword } from '../../../src/domain/password.js';
import { PrimaryPasswordHasher } from '../../../src/infrastructure/cluster/primary-hashing.js';
import { ConcurrencyLimiter } from '../../../src/infrastructure/security/concurrency-limiter.js';

const PARAMETERS = { memoryKiB: 1024, timeCost: 1, parallelism: 1 };
const password = (value: string): PlainPassword => {
  const parsed = PlainPassword.parse(value);
  if (!parsed.ok) throw new Error('test password refused');
  return parsed.value;
};

/** A worker's hasher over a fake channel: what it sends, and a way to answer as the primary would. */
function overFakeChannel() {
  const sent: Array<{ id: number; operation: string; password: string; hash?: string }> = [];
  const timed: Array<[string, number]> = [];
  let deliver: (message: unknown) => void = () => undefined;
  const limiter = new ConcurrencyLimiter(2, 1);
  const hasher = new PrimaryPasswordHasher(PARAMETERS, (operation, seconds) => void timed.push([operation, seconds]), limiter, (message) => void sent.push(message), (listener) => {
    deliver = listener;
  });
  const answer = (fields: Record<string, unknown>) => deliver({ type: 'account-service:hash-answer', id: sent.at(-1)?.id, ...fields });
  return { sent, timed, limiter, hasher, answer, tell: (full: boolean) => deliver({ type: 'account-service:hashing-full', full }) };
}

describe('PrimaryPasswordHasher (a worker of WORKERS asks the primary to hash)', () => {
  it('sends the operation with the password and the hash, and reports the time the primary measured', async () => {
    const { sent, timed, hasher, answer } = overFakeChannel();
    const verified = hasher.verify('$argon2id$v=19$m=1024,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2g', password('analytical engine 1843'));
    expect(sent).to.deep.equal([{ type: 'account-service:hash-request', id: 0, operation: 'verify', password: 'analytical engine 1843', hash: '$argon2id$v=19$m=1024,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2g' }]);
    answer({ result: true, seconds: 0.021 });
    expect(await verified).to.equal(true);
    expect(timed).to.deep.equal([['verify', 0.021]]);
  });

  it('turns the primary refusing (its queue full) into the 503 of a shed, counted by the worker limiter', async () => {
    const { hasher, answer, limiter } = overFakeChannel();
    const refused = hasher.verifyDummy(password('analytical engine 1843'));
    answer({ overloaded: true });
    expect(await refused.then(() => null, (error: unknown) => error)).to.be.instanceOf(ServiceUnavailable);
    expect(limiter.stats().shed).to.equal(1);
  });

  it('sheds at the edge while the primary says its queue is full, and admits again once it says it is not', () => {
    const { hasher, tell, limiter } = overFakeChannel();
    expect(() => hasher.admission.admit()).to.not.throw();
    tell(true);
    expect(() => hasher.admission.admit()).to.throw(ServiceUnavailable);
    expect(limiter.stats().shed).to.equal(1);
    tell(false);
    expect(() => hasher.admission.admit()).to.not.throw();
  });

  it('fails loudly, not silently false, when the primary could not hash', async () => {
    const { hasher, answer } = overFakeChannel();
    const failing = hasher.hash(password('analytical engine 1843'));
    answer({ error: 'out of memory' });
    expect(await failing.then(() => null, (error: unknown) => String(error))).to.match(/password hashing failed in the primary: out of memory/);
  });
});
