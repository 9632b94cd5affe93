import { expect } from 'chai';
import { Passkey } from '../../../src/domain/passkeys/passkey.js';

const T0 = new Date('2026-11-25T12:00:00.000Z');
const aPasskey = (counter: number) =>
  Passkey.register({ id: 'cred-1', userId: 'u-1', name: 'Laptop', publicKey: 'pk', counter, transports: ['internal'], backedUp: false, deviceType: 'multiDevice', createdAt: T0 });

describe('Passkey: the signature counter rule', () => {
  it('takes a counter that moved on, with the backup state and the time of use', () => {
    const passkey = aPasskey(3);
    expect(passkey.used(4, true, T0)).to.equal(true);
    expect(passkey.snapshot()).to.deep.include({ counter: 4, backedUp: true, lastUsedAt: T0 });
  });

  it('refuses a counter that went backwards or stood still (a possible clone), changing nothing', () => {
    for (const presented of [2, 3]) {
      const passkey = aPasskey(3);
      expect(passkey.used(presented, true, T0), String(presented)).to.equal(false);
      expect(passkey.snapshot()).to.deep.include({ counter: 3, backedUp: false, lastUsedAt: null });
    }
  });

  it('accepts 0 again and again from an authenticator that keeps no counter', () => {
    const passkey = aPasskey(0);
    expect(passkey.used(0, false, T0) && passkey.used(0, false, T0)).to.equal(true);
  });
});
