import { expect } from 'chai';
import { StepUpRequired } from '../../../errors.js';
import { aRequestMetadata, aHolderProof } from '../../../../../tests/support/builders.js';
import { issuesOf } from '../../../../../tests/support/mail-world.js';
import { rejection } from '../../../../../tests/support/rejection.js';
import { codeOf, enrolled } from '../../../../../tests/support/totp.js';

const metadata = aRequestMetadata();
const INCORRECT = [{ field: 'code', code: 'INCORRECT', message: 'is incorrect or already used' }];

describe('ConfirmTotpHandler', () => {
  it('confirms with a code: ten recovery codes once, stored as MACs, MfaEnrolled with no secret; the same code never again', async () => {
    const { world, principal, enrolment, userId } = await enrolled();
    const code = codeOf(enrolment.secret, world.clock.now());
    const { recoveryCodes } = await world.confirmTotp.execute({ principal, code, metadata });
    expect(recoveryCodes).to.have.length(10);
    const stored = (await world.ports.secondFactors.find(userId))?.snapshot();
    expect(stored?.confirmedAt).to.deep.equal(world.clock.now());
    expect(stored?.recoveryCodes.every((entry, i) => entry.usedAt === null && world.ports.factorSecrets.matches(recoveryCodes[i] ?? '', userId, entry.mac))).to.equal(true);
    const serialised = JSON.stringify([stored, world.store.events]);
    for (const secret of [enrolment.secret, code, ...recoveryCodes]) expect(serialised, secret).to.not.include(secret);
    const enrolledEvents = world.store.capabilityEvents.filter((event) => event.type === 'MfaEnrolled');
    expect(enrolledEvents.map((event) => [event.aggregateId, event.payload])).to.deep.equal([[userId, { email: 'ada@example.com' }]]);
    expect(issuesOf(await rejection(world.confirmTotp.execute({ principal, code, metadata }))), 'confirmed already').to.deep.equal(INCORRECT);
    expect(await rejection(world.enrolTotp.execute(aHolderProof(principal))), 'a factor now: step-up first').to.be.instanceOf(StepUpRequired);
  });

  it('refuses a wrong code, one two steps off, and nothing pending; accepts one step of drift', async () => {
    const { world, principal, enrolment } = await enrolled();
    const now = world.clock.now();
    for (const code of ['000000', codeOf(enrolment.secret, now, 2), codeOf(enrolment.secret, now, -2), '', 'abcdef']) {
      const expected = code === '' ? [{ field: 'code', code: 'REQUIRED', message: 'is required' }] : INCORRECT;
      expect(issuesOf(await rejection(world.confirmTotp.execute({ principal, code, metadata }))), JSON.stringify(code)).to.deep.equal(expected);
    }
    expect((await world.confirmTotp.execute({ principal, code: codeOf(enrolment.secret, now, -1), metadata })).recoveryCodes).to.have.length(10);
  });

  it('of 20 simultaneous confirmations with one code, exactly one succeeds (the step is taken once)', async () => {
    const { world, principal, enrolment } = await enrolled();
    const code = codeOf(enrolment.secret, world.clock.now());
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => world.confirmTotp.execute({ principal, code, metadata })));
    expect(results.filter((result) => result.status === 'fulfilled')).to.have.length(1);
    expect(world.store.capabilityEvents.filter((event) => event.type === 'MfaEnrolled')).to.have.length(1);
  });
});
