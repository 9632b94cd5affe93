import { expect } from 'chai';
import { aRequestMetadata } from '../../../../tests/support/builders.js';
import { issuesOf } from '../../../../tests/support/mail-world.js';
import { rejection } from '../../../../tests/support/rejection.js';
import { codeOf, enrolled } from '../../../../tests/support/totp.js';

const metadata = aRequestMetadata();
const INCORRECT = [{ field: 'code', message: 'is incorrect or already used' }];

describe('EnrolTotpHandler', () => {
  it('enrols: a secret and its otpauth URI once, stored only sealed, unconfirmed until a code arrives', async () => {
    const { world, enrolment, userId } = await enrolled();
    expect(enrolment.secret).to.match(/^[A-Z2-7]{32}$/);
    expect(new URL(enrolment.uri).searchParams.get('secret')).to.equal(enrolment.secret);
    const stored = (await world.ports.secondFactors.find(userId))?.snapshot();
    expect(stored?.confirmedAt).to.equal(null);
    expect(JSON.stringify(stored)).to.not.include(enrolment.secret);
    expect(world.ports.factorSecrets.open(stored?.sealedSecret ?? '', userId)).to.equal(enrolment.secret);
  });

  it('starting again before confirming replaces the secret: a code of the first one no longer confirms', async () => {
    const { world, principal, enrolment } = await enrolled();
    const again = await world.enrolTotp.execute({ principal });
    expect(again.secret).to.not.equal(enrolment.secret);
    expect(issuesOf(await rejection(world.confirmTotp.execute({ principal, code: codeOf(enrolment.secret, world.clock.now()), metadata })))).to.deep.equal(INCORRECT);
    expect((await world.confirmTotp.execute({ principal, code: codeOf(again.secret, world.clock.now()), metadata })).recoveryCodes).to.have.length(10);
  });

});
