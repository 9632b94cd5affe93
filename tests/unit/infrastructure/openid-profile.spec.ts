import { expect } from 'chai';
import { openIdProfile } from '../../../src/infrastructure/social-sign-in/providers/openid-profile.js';

const token = { iss: 'https://idp.example', sub: 'ada' };

describe('openIdProfile (an OpenID provider’s claims as a ProviderProfile)', () => {
  it('proves an address only for email_verified true or "true"; absent, false, "false" or anything else is unproven', () => {
    for (const [claim, proven] of [[true, true], ['true', true], [undefined, false], [false, false], ['false', false], ['TRUE', false], [1, false], ['yes', false]] as const) {
      const claims = claim === undefined ? { ...token, email: 'ada@example.com' } : { ...token, email: 'ada@example.com', email_verified: claim };
      expect(openIdProfile(claims, {}).emailVerified, String(claim)).to.equal(proven);
      expect(openIdProfile(token, { email: 'ada@example.com', ...(claim === undefined ? {} : { email_verified: claim }) }).emailVerified, `userinfo ${String(claim)}`).to.equal(proven);
    }
  });

  it('takes the address and its proof from one source: the ID token when it shows an address, else userinfo', () => {
    expect(openIdProfile({ ...token, email_verified: true }, { email: 'ada@example.com', email_verified: false })).to.deep.include({ email: 'ada@example.com', emailVerified: false });
    expect(openIdProfile({ ...token, email_verified: true }, { email: 'ada@example.com' })).to.deep.include({ email: 'ada@example.com', emailVerified: false });
    expect(openIdProfile({ ...token, email: 'ada@example.com' }, { email: 'ada@example.com', email_verified: true })).to.deep.include({ emailVerified: false });
    expect(openIdProfile({ ...token, email: 'ada@example.com', email_verified: true }, { email: 'other@example.com', email_verified: false })).to.deep.include({ email: 'ada@example.com', emailVerified: true });
  });

  it('takes the issuer and the subject from the ID token, and the names from either, the ID token first', () => {
    expect(openIdProfile({ ...token, given_name: 'Ada' }, { sub: 'someone-else', given_name: 'Augusta', family_name: 'King', name: '' })).to.deep.equal({
      issuer: 'https://idp.example', subject: 'ada', email: null, emailVerified: false, givenName: 'Ada', familyName: 'King', name: null,
    });
  });
});
