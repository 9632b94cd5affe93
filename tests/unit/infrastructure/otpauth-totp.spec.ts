import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { Secret, TOTP } from 'otpauth';
import { OtpAuthTotp } from '../../../src/infrastructure/second-factor/otpauth-totp.js';

/** RFC 6238, appendix B: the SHA-1 seed "12345678901234567890"; its 8-digit codes end in the 6-digit ones. */
const RFC_SECRET = Secret.fromLatin1('12345678901234567890').base32;
const RFC_VECTORS: ReadonlyArray<readonly [number, string]> = [
  [59, '287082'],
  [1_111_111_109, '081804'],
  [1_111_111_111, '050471'],
  [1_234_567_890, '005924'],
  [2_000_000_000, '279037'],
  [20_000_000_000, '353130'],
];

const totp = new OtpAuthTotp('Account service');
const at = (seconds: number) => new Date(seconds * 1000);

describe('OtpAuthTotp (RFC 6238 through otpauth)', () => {
  it('finds the step of each RFC 6238 test vector (SHA-1, 6 digits, 30 s)', () => {
    for (const [seconds, code] of RFC_VECTORS) expect(totp.stepOf(RFC_SECRET, code, at(seconds), -1), `T=${seconds}`).to.equal(Math.floor(seconds / 30));
  });

  it('accepts one step of drift either way and no more', () => {
    const seconds = 1_111_111_111;
    const step = Math.floor(seconds / 30);
    const code = (s: number) => TOTP.generate({ secret: Secret.fromBase32(RFC_SECRET), timestamp: s * 30_000 });
    expect(totp.stepOf(RFC_SECRET, code(step - 1), at(seconds), -1)).to.equal(step - 1);
    expect(totp.stepOf(RFC_SECRET, code(step + 1), at(seconds), -1)).to.equal(step + 1);
    expect(totp.stepOf(RFC_SECRET, code(step - 2), at(seconds), -1)).to.equal(null);
    expect(totp.stepOf(RFC_SECRET, code(step + 2), at(seconds), -1)).to.equal(null);
  });

  it('never returns a step at or before the last one used: a replayed code finds nothing', () => {
    const step = Math.floor(59 / 30);
    expect(totp.stepOf(RFC_SECRET, '287082', at(59), step)).to.equal(null);
    expect(totp.stepOf(RFC_SECRET, '287082', at(59), step - 1)).to.equal(step);
  });

  it('refuses what is not six digits', () => {
    for (const code of ['', '28708', '2870821', '28708a', ' 287082', '２８７０８２']) expect(totp.stepOf(RFC_SECRET, code, at(59), -1), JSON.stringify(code)).to.equal(null);
  });

  it('makes 160-bit base32 secrets and an otpauth URI an authenticator app reads', () => {
    const secret = totp.newSecret();
    expect(secret).to.match(/^[A-Z2-7]{32}$/);
    expect(totp.newSecret()).to.not.equal(secret);
    const uri = new URL(totp.uriFor(secret, 'ada@example.com'));
    expect(uri.protocol).to.equal('otpauth:');
    expect(uri.searchParams.get('secret')).to.equal(secret);
    expect(Object.fromEntries([...uri.searchParams].filter(([name]) => name !== 'secret'))).to.deep.equal({ issuer: 'Account service', algorithm: 'SHA1', digits: '6', period: '30' });
  });

  it('agrees with oathtool where it is installed', function () {
    let code: string;
    try {
      code = execFileSync('oathtool', ['--totp', '--base32', RFC_SECRET, '--now', '2005-03-18 01:58:29 UTC'], { encoding: 'utf8' }).trim();
    } catch (error) {
      (this.test as unknown as { skipReason: string }).skipReason = `oathtool is not installed: ${(error as Error).message}`;
      this.skip();
    }
    expect(totp.stepOf(RFC_SECRET, code, at(1_111_111_109), -1)).to.equal(Math.floor(1_111_111_109 / 30));
  });
});
