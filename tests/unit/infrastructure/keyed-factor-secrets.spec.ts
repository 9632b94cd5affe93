import { expect } from 'chai';
import { Secret } from 'otpauth';
import { KeyedFactorSecrets } from '../../../src/infrastructure/second-factor/keyed-factor-secrets.js';

const secrets = new KeyedFactorSecrets(Buffer.from('a server secret of at least thirty-two bytes'));
const other = new KeyedFactorSecrets(Buffer.from('another server secret, thirty-two bytes at least'));
const TOTP_SECRET = Secret.fromLatin1('12345678901234567890').base32;

describe('KeyedFactorSecrets', () => {
  it('seals a TOTP secret so that neither its base32 nor its bytes appear, and opens it for its account only', () => {
    const sealed = secrets.seal(TOTP_SECRET, 'u-1');
    expect(sealed).to.match(/^s1\./);
    for (const form of [TOTP_SECRET, Buffer.from('12345678901234567890').toString('base64url'), Buffer.from('12345678901234567890').toString('hex')]) {
      expect(sealed).to.not.include(form);
    }
    expect(secrets.open(sealed, 'u-1')).to.equal(TOTP_SECRET);
    expect(secrets.open(sealed, 'u-2'), 'moved to another account').to.equal(null);
    expect(other.open(sealed, 'u-1'), 'under another key').to.equal(null);
    expect(secrets.seal(TOTP_SECRET, 'u-1'), 'a fresh IV each time').to.not.equal(sealed);
  });

  it('refuses an altered seal, whatever part changed', () => {
    const sealed = secrets.seal(TOTP_SECRET, 'u-1');
    const parts = sealed.split('.');
    for (let i = 1; i < parts.length; i++) {
      const altered = [...parts];
      const part = altered[i] ?? '';
      altered[i] = `${part.slice(0, -2)}${part.endsWith('AA') ? 'BB' : 'AA'}`;
      expect(secrets.open(altered.join('.'), 'u-1'), `part ${i}`).to.equal(null);
    }
    expect(secrets.open('not a seal', 'u-1')).to.equal(null);
  });

  it('makes ten distinct recovery codes of 50 bits, shown as xxxxx-xxxxx', () => {
    const codes = secrets.newRecoveryCodes(10);
    expect(codes).to.have.length(10);
    expect(new Set(codes).size).to.equal(10);
    for (const code of codes) expect(code).to.match(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
  });

  it('stores a recovery code as a keyed MAC per account, matched whatever the case, dashes and spaces typed', () => {
    const [code = ''] = secrets.newRecoveryCodes(1);
    const mac = secrets.macOf(code, 'u-1');
    expect(mac).to.not.include(code.replace('-', '')).and.not.include(code.replace('-', '').toUpperCase());
    expect(secrets.matches(code, 'u-1', mac)).to.equal(true);
    expect(secrets.matches(` ${code.toUpperCase().replace('-', ' ')} `, 'u-1', mac)).to.equal(true);
    expect(secrets.matches(code, 'u-2', mac), 'another account').to.equal(false);
    expect(other.matches(code, 'u-1', mac), 'another key').to.equal(false);
    expect(secrets.matches(`${code.slice(0, -1)}${code.endsWith('a') ? 'b' : 'a'}`, 'u-1', mac)).to.equal(false);
    expect(secrets.matches('', 'u-1', mac)).to.equal(false);
  });
});
