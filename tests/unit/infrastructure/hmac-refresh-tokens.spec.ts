import { expect } from 'chai';
import { HmacRefreshTokens } from '../../../src/infrastructure/security/hmac-refresh-tokens.js';

const SESSION = '0b8e6c1a-7f0e-4c1d-9a51-3f6e2b9d4c21';
const tokens = new HmacRefreshTokens(Buffer.alloc(32, 7));

/** The same MAC with its last base64url character changed in the 2 bits that encode nothing (43 chars = 256 bits + 2). */
const otherSpellingOfLastChar = (token: string): string => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const last = alphabet.indexOf(token.at(-1)!);
  return token.slice(0, -1) + alphabet[last ^ 1];
};

describe('HmacRefreshTokens', () => {
  it('reads back the claim of a token it issued, and nothing from another key', () => {
    const token = tokens.issue({ sessionId: SESSION, generation: 3 });
    expect(tokens.read(token)).to.deep.equal({ sessionId: SESSION, generation: 3 });
    expect(new HmacRefreshTokens(Buffer.alloc(32, 8)).read(token)).to.equal(null);
  });

  it('refuses a generation written with leading zeros: one claim, one token', () => {
    const token = tokens.issue({ sessionId: SESSION, generation: 7 });
    expect(tokens.read(token.replace('.7.', '.0007.'))).to.equal(null);
    expect(tokens.read(tokens.issue({ sessionId: SESSION, generation: 0 }).replace('.0.', '.0000.'))).to.equal(null);
  });

  it("refuses the MAC's last character spelled differently in its ignored bits", () => {
    const token = tokens.issue({ sessionId: SESSION, generation: 1 });
    const variant = otherSpellingOfLastChar(token);
    expect(Buffer.from(variant.split('.')[3]!, 'base64url')).to.deep.equal(Buffer.from(token.split('.')[3]!, 'base64url'));
    expect(tokens.read(variant)).to.equal(null);
  });

  it('refuses an upper-case session id (the issued one is lower case)', () => {
    const token = tokens.issue({ sessionId: SESSION, generation: 1 });
    expect(tokens.read(token.replace(SESSION, SESSION.toUpperCase()))).to.equal(null);
  });
});
