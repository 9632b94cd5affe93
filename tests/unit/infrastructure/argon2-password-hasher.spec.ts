import { expect } from 'chai';
import { ACCEPTED_BOUNDS, Argon2PasswordHasher, parametersOf, withinBounds } from '../../../src/infrastructure/security/argon2-password-hasher.js';
import { aPassword } from '../../support/parsed.js';


const CHEAP = { memoryKiB: 1024, timeCost: 1, parallelism: 1 };
const OTHER = { memoryKiB: 2048, timeCost: 1, parallelism: 1 };

describe('Argon2PasswordHasher (real argon2, cheap parameters)', () => {
  const cheap = new Argon2PasswordHasher(CHEAP);
  const other = new Argon2PasswordHasher(OTHER);
  let hash: string;
  before(async () => (hash = await cheap.hash(aPassword('analytical engine 1843'))));

  it('makes argon2id PHC strings carrying its parameters, and verifies them', async () => {
    expect(parametersOf(hash)).to.deep.equal(CHEAP);
    expect(await cheap.verify(hash, aPassword('analytical engine 1843'))).to.equal(true);
    expect(await cheap.verify(hash, aPassword('analytical engine 1844'))).to.equal(false);
    expect(await other.verify(hash, aPassword('analytical engine 1843'))).to.equal(true);
  });

  it('needs a rehash exactly when the hash was made with other parameters', async () => {
    expect(cheap.needsRehash(hash)).to.equal(false);
    expect(other.needsRehash(hash)).to.equal(true);
    expect(other.needsRehash(await other.hash(aPassword('analytical engine 1843')))).to.equal(false);
  });

  it('refuses a tampered hash asking for more time than accepted, without running it', async function () {
    this.timeout(60_000);
    const tampered = hash.replace('t=1', 't=100000');
    const started = process.hrtime.bigint();
    expect(await cheap.verify(tampered, aPassword('analytical engine 1843'))).to.equal(false);
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    expect(elapsedMs, 'an actual verification at t=100000 and 1 MiB takes minutes').to.be.below(1000);
  });

  it('refuses hashes whose parameters exceed the bounds (memory, time, lanes), whatever the password', async () => {
    for (const tampered of [hash.replace('m=1024', 'm=4194304'), hash.replace('t=1', 't=1000'), hash.replace('p=1', 'p=64')]) {
      expect(withinBounds(parametersOf(tampered) ?? CHEAP), tampered).to.equal(false);
      expect(await cheap.verify(tampered, aPassword('analytical engine 1843'))).to.equal(false);
    }
    expect(withinBounds(ACCEPTED_BOUNDS)).to.equal(true);
  });

  for (const malformed of ['', 'not a hash', '$argon2i$v=19$m=1024,t=1,p=1$c2FsdHNhbHQ$aGFzaA', '$argon2id$v=19$m=1024,t=1$c2FsdA$aGFzaA', '$2b$10$abcdefghijklmnopqrstuv']) {
    it(`refuses the malformed hash ${JSON.stringify(malformed)}: verify is false, and it needs a rehash`, async () => {
      expect(await cheap.verify(malformed, aPassword('analytical engine 1843'))).to.equal(false);
      expect(cheap.needsRehash(malformed)).to.equal(true);
    });
  }
});
