import { expect } from 'chai';
import { ZxcvbnPasswordBlocklist } from '../../../src/infrastructure/security/zxcvbn-password-blocklist.js';
import { aPassword } from '../../support/parsed.js';


describe('ZxcvbnPasswordBlocklist', () => {
  const blocklist = new ZxcvbnPasswordBlocklist();

  it('loads the common-password list of @zxcvbn-ts/language-common once', () => {
    expect(blocklist.size).to.be.greaterThan(40_000);
  });

  for (const common of ['password', '12345678', 'qwertyuiop', 'iloveyou', 'PASSWORD123', 'Trustno1', 'ｐａｓｓｗｏｒｄ１２３']) {
    it(`knows ${JSON.stringify(common)} as common (case-insensitively, after NFKC)`, () => {
      expect(blocklist.isCommon(aPassword(common))).to.equal(true);
    });
  }

  for (const rare of ['analytical engine 1843', 'correct horse battery staple 77', 'Ada-Lovelace-1815!']) {
    it(`does not know ${JSON.stringify(rare)}`, () => {
      expect(blocklist.isCommon(aPassword(rare))).to.equal(false);
    });
  }
});
