import { expect } from 'chai';
import { TotpFactor, challengeOpen } from '../../../src/domain/second-factor/second-factor.js';
import { steppedUp } from '../../../src/domain/session.js';

const T0 = new Date('2026-11-25T12:00:00.000Z');

describe('TotpFactor: each time step is accepted once', () => {
  it('is unconfirmed until its first accepted step, which confirms it at that time', () => {
    const factor = TotpFactor.enrol('u-1', 'sealed', T0);
    expect(factor.confirmed).to.equal(false);
    expect(factor.lastStep).to.equal(-1);
    expect(factor.accept(1000, new Date(T0.getTime() + 5_000))).to.equal(true);
    expect(factor.snapshot()).to.deep.include({ confirmedAt: new Date(T0.getTime() + 5_000), lastStep: 1000 });
  });

  it('refuses a step already used (a replayed code) and any older one, changing nothing', () => {
    const factor = TotpFactor.enrol('u-1', 'sealed', T0);
    factor.accept(1000, T0);
    const before = factor.snapshot();
    expect(factor.accept(1000, T0), 'the same step').to.equal(false);
    expect(factor.accept(999, T0), 'the step before (drift back)').to.equal(false);
    expect(factor.snapshot()).to.deep.equal(before);
    expect(factor.accept(1001, T0), 'the next step').to.equal(true);
    expect(factor.lastStep).to.equal(1001);
  });

  it('refuses what is not a whole step', () => {
    const factor = TotpFactor.enrol('u-1', 'sealed', T0);
    for (const step of [Number.NaN, 1.5, Number.POSITIVE_INFINITY]) expect(factor.accept(step, T0), String(step)).to.equal(false);
    expect(factor.confirmed).to.equal(false);
  });

  it('spends a recovery code once; regenerating replaces them all', () => {
    const factor = TotpFactor.enrol('u-1', 'sealed', T0);
    factor.replaceRecoveryCodes(['m1', 'm2', 'm3']);
    expect(factor.recoveryCodesLeft).to.equal(3);
    expect(factor.useRecoveryCode((mac) => mac === 'm2', T0)).to.equal(true);
    expect(factor.useRecoveryCode((mac) => mac === 'm2', T0), 'used').to.equal(false);
    expect(factor.useRecoveryCode((mac) => mac === 'm9', T0), 'unknown').to.equal(false);
    expect(factor.recoveryCodesLeft).to.equal(2);
    factor.replaceRecoveryCodes(['n1', 'n2']);
    expect(factor.useRecoveryCode((mac) => mac === 'm1', T0), 'an old one').to.equal(false);
    expect(factor.recoveryCodesLeft).to.equal(2);
  });

  it('tells a used recovery code (a replay, a lost race) from one it never had', () => {
    const factor = TotpFactor.enrol('u-1', 'sealed', T0);
    factor.replaceRecoveryCodes(['m1', 'm2']);
    expect(factor.spentRecoveryCode((mac) => mac === 'm1'), 'not used yet').to.equal(false);
    factor.useRecoveryCode((mac) => mac === 'm1', T0);
    expect(factor.spentRecoveryCode((mac) => mac === 'm1')).to.equal(true);
    expect(factor.spentRecoveryCode((mac) => mac === 'm9')).to.equal(false);
    factor.replaceRecoveryCodes(['n1']);
    expect(factor.spentRecoveryCode((mac) => mac === 'm1'), 'replaced: unknown now').to.equal(false);
  });

  it('keeps its first confirmation time', () => {
    const factor = TotpFactor.enrol('u-1', 'sealed', T0);
    factor.accept(1000, T0);
    factor.accept(1001, new Date(T0.getTime() + 30_000));
    expect(factor.snapshot().confirmedAt).to.deep.equal(T0);
  });
});

describe('second-factor rules: challenges and step-up (time injected)', () => {
  const t0 = new Date('2026-11-25T12:00:00.000Z');
  const later = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
  const challenge = { id: 'c', userId: 'u', epoch: 3, createdAt: t0, expiresAt: later(300) };

  it('a challenge is open until it expires, and only while the account is at the epoch it was issued in', () => {
    expect(challengeOpen(challenge, later(299), 3)).to.equal(true);
    expect(challengeOpen(challenge, later(300), 3)).to.equal(false);
    expect(challengeOpen(challenge, later(1), 4), 'a password change moved the epoch on').to.equal(false);
  });

  it('step-up holds for a token with otp in amr and auth_time within the window, and for nothing else', () => {
    expect(steppedUp(['pwd', 'otp'], t0, later(300), 300)).to.equal(true);
    expect(steppedUp(['pwd', 'otp'], t0, later(301), 300)).to.equal(false);
    expect(steppedUp(['pwd'], t0, t0, 300)).to.equal(false);
    expect(steppedUp(['pwd', 'otp'], null, t0, 300)).to.equal(false);
  });
});
