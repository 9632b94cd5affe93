import { expect } from 'chai';
import { Email, EMAIL_MAX_LENGTH } from '../../../src/domain/email.js';
import { PASSWORD_MAX_LENGTH, PlainPassword } from '../../../src/domain/password.js';
import { NAME_MAX_LENGTH, PersonName } from '../../../src/domain/person-name.js';
import type { Parsed } from '../../../src/domain/validation.js';
import { valueOf } from '../../support/parsed.js';

const messages = (parsed: Parsed<unknown>): string[] => (parsed.ok ? [] : parsed.issues.map((issue) => issue.message));

describe('Email', () => {
  it('trims, NFKC-normalises and lower-cases before validating', () => {
    expect(valueOf(Email.parse('  Ada.Lovelace@Example.COM \n')).value).to.equal('ada.lovelace@example.com');
    const decomposed = 'Jose\u0301@example.com';
    expect(valueOf(Email.parse(decomposed)).value).to.equal('jos\u00e9@example.com');
  });

  for (const bad of ['', '   ', 'ada', 'ada@', '@example.com', 'ada@example', 'a b@example.com', 'ada@@example.com', 'ada..x@example.com', 'ada@exa_mple.com']) {
    it(`rejects ${JSON.stringify(bad)}`, () => {
      expect(Email.parse(bad).ok).to.equal(false);
    });
  }

  it(`accepts ${EMAIL_MAX_LENGTH} characters and rejects one more`, () => {
    const domain = `${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(63)}.com`;
    const local = 'a'.repeat(EMAIL_MAX_LENGTH - domain.length - 1);
    expect(Email.parse(`${local}@${domain}`).ok).to.equal(true);
    expect(messages(Email.parse(`${local}a@${domain}`))).to.deep.equal([`must be at most ${EMAIL_MAX_LENGTH} characters`]);
  });

  it('rejects a lone surrogate', () => {
    expect(messages(Email.parse('ada\ud800@example.com'))).to.deep.equal(['must be valid Unicode text']);
  });

  for (const [label, address] of [
    ['a C0 control (U+0001)', 'a\u0001b@example.com'],
    ['DEL (U+007F)', 'victim\u007f@example.com'],
    ['NEL, a C1 control (U+0085)', 'victim\u0085@example.com'],
    ['a zero-width space (U+200B, Cf)', 'victim\u200b@example.com'],
    ['a soft hyphen (U+00AD, Cf)', 'vic\u00adtim@example.com'],
    ['a word joiner (U+2060, Cf)', 'victim\u2060@example.com'],
    ['a line separator (U+2028, Zl)', 'vic\u2028tim@example.com'],
    ['a paragraph separator (U+2029, Zp)', 'vic\u2029tim@example.com'],
    ['an unassigned code point (U+0378)', 'vic\u0378tim@example.com'],
    ['a private-use code point (U+E000)', 'vic\ue000tim@example.com'],
    ['the Hangul filler U+3164 in the local part', 'victim\u3164@example.com'],
    ['the Hangul filler U+3164 in the domain', 'victim@exam\u3164ple.com'],
    ['the halfwidth Hangul filler U+FFA0 in the local part', 'victim\uffa0@example.com'],
    ['the halfwidth Hangul filler U+FFA0 in the domain', 'victim@example\uffa0.com'],
    ['the Hangul choseong filler U+115F', 'vic\u115ftim@example.com'],
    ['the Hangul jungseong filler U+1160', 'vic\u1160tim@example.com'],
    ['the variation selector U+FE0F', 'victim\ufe0f@example.com'],
    ['the combining grapheme joiner U+034F', 'vic\u034ftim@example.com'],
    ['the Mongolian free variation selector U+180B', 'victim\u180b@example.com'],
    ['the blank Braille pattern U+2800', 'victim\u2800@example.com'],
    ['the Hangul filler U+3164 as the whole label of the domain', 'victim@\u3164.example.com'],
  ] as const) {
    it(`refuses ${label}: the mail would go to another mailbox than the one stored`, () => {
      expect(messages(Email.parse(address))).to.deep.equal(['must not contain control, invisible or unassigned characters']);
    });
  }

  it('refuses a domain that IDNA (UTS #46) refuses, and accepts one it converts', () => {
    expect(messages(Email.parse('ada@xn--a.com'))).to.deep.equal(['must be a valid email address']);
    expect(messages(Email.parse('ada@\u06611.com'))).to.deep.equal(['must be a valid email address']);
    expect(Email.parse('ada@b\u00fccher.de').ok).to.equal(true);
    expect(Email.parse('ada@xn--bcher-kva.de').ok).to.equal(true);
  });

  it('still accepts letters of any script', () => {
    expect(Email.parse('jos\u00e9@example.com').ok).to.equal(true);
    expect(Email.parse('\u0441\u0435\u0440\u0433\u0435\u0439@example.com').ok).to.equal(true);
    expect(Email.parse('\u6d4b\u8bd5@\u4f8b\u5b50.\u4e2d\u56fd').ok).to.equal(true);
  });

  it('stores the canonical form: NFKC, lower case, the domain as UTS #46 maps it, so a look-alike is the same address', () => {
    for (const [typed, stored] of [
      ['ada@\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.com', 'ada@example.com'],
      ['ADA@\uff25\uff38\uff21\uff2d\uff30\uff2c\uff25\uff0e\uff43\uff4f\uff4d', 'ada@example.com'],
      ['\uff41\uff44\uff41@example.com', 'ada@example.com'],
      ['\u212aate@example.com', 'kate@example.com'],
      ['kate@exam\u212aple.com', 'kate@examkple.com'],
      ['\u017fam@example.com', 'sam@example.com'],
      ['ada@xn--bcher-kva.de', 'ada@b\u00fccher.de'],
      ['ada@B\u00dcCHER.DE', 'ada@b\u00fccher.de'],
      ['ada@XN--FSQU00A.XN--FIQS8S', 'ada@\u4f8b\u5b50.\u4e2d\u56fd'],
      ['ada@\u1e9e.de', 'ada@ss.de'],
      ['ada@stra\u00dfe.de', 'ada@stra\u00dfe.de'],
    ] as const) {
      expect(valueOf(Email.parse(typed)).value, typed).to.equal(stored);
    }
  });

  it('checks the shape and the length of the canonical form', () => {
    expect(valueOf(Email.parse('ada\uff20example.com')).value, 'the full-width at sign is an at sign').to.equal('ada@example.com');
    expect(messages(Email.parse('ada@evil.com\uff20example.com'))).to.deep.equal(['must be a valid email address']);
    expect(messages(Email.parse('ada\u2025x@example.com')), 'the two-dot leader is ".."').to.deep.equal(['must be a valid email address']);
    const domain = `${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(63)}.com`;
    const local = 'a'.repeat(EMAIL_MAX_LENGTH - domain.length - 2);
    expect(Email.parse(`${local}f@${domain}`).ok).to.equal(true);
    expect(messages(Email.parse(`${local}\ufb00@${domain}`)), 'the ligature U+FB00 is "ff"').to.deep.equal([`must be at most ${EMAIL_MAX_LENGTH} characters`]);
  });

  it('takes a provider\u2019s address as proof only where mapping changes no more than its case and its domain', () => {
    expect(valueOf(Email.parseAsShown('Kate@\uff25xample.COM')).value).to.equal('kate@example.com');
    expect(valueOf(Email.parseAsShown('Jos\u00e9@b\u00fccher.de')).value).to.equal('jos\u00e9@b\u00fccher.de');
    for (const address of ['\u212aate@example.com', '\uff4bate@example.com', '\u017fam@example.com', 'jose\u0301@example.com', 'ada\uff20example.com']) {
      expect(messages(Email.parseAsShown(address)), address).to.deep.equal(['must not change under Unicode normalisation']);
    }
    expect(messages(Email.parseAsShown(null))).to.deep.equal(['is required']);
  });

  it('knows its local part', () => {
    expect(valueOf(Email.parse('ada@example.com')).localPart).to.equal('ada');
  });
});

describe('PersonName', () => {
  it('trims and keeps the name', () => {
    expect(valueOf(PersonName.parse('name', '  Ada ')).value).to.equal('Ada');
  });

  it('requires at least one character after trimming', () => {
    expect(PersonName.parse('name', '   ')).to.deep.equal({ ok: false, issues: [{ field: 'name', code: 'REQUIRED', message: 'is required' }] });
  });

  it(`allows ${NAME_MAX_LENGTH} characters (counted as code points) and not more`, () => {
    expect(PersonName.parse('name', '😀'.repeat(NAME_MAX_LENGTH)).ok).to.equal(true);
    expect(PersonName.parse('lastname', 'x'.repeat(NAME_MAX_LENGTH + 1))).to.deep.equal({
      ok: false,
      issues: [{ field: 'lastname', code: 'TOO_LONG', message: `must be at most ${NAME_MAX_LENGTH} characters` }],
    });
  });

  for (const control of ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085']) {
    it(`rejects the control character U+${control.charCodeAt(0).toString(16).padStart(4, '0')}`, () => {
      expect(messages(PersonName.parse('name', `Ad${control}a`))).to.deep.equal(['must not contain control characters']);
    });
  }
});

describe('PlainPassword', () => {
  const email = valueOf(Email.parse('ada@example.com'));

  it('is never trimmed and is NFKC-normalised', () => {
    expect(valueOf(PlainPassword.choose('  spaced out  ', email)).value).to.equal('  spaced out  ');
    expect(valueOf(PlainPassword.choose('ｆｕｌｌｗｉｄｔｈ', email)).value).to.equal('fullwidth');
  });

  it('needs 8 to 128 characters to be chosen', () => {
    expect(messages(PlainPassword.choose('1234567', email))).to.deep.equal(['must be at least 8 characters']);
    expect(PlainPassword.choose('12345678', email).ok).to.equal(true);
    expect(PlainPassword.choose('x'.repeat(PASSWORD_MAX_LENGTH), email).ok).to.equal(true);
    expect(messages(PlainPassword.choose('x'.repeat(PASSWORD_MAX_LENGTH + 1), email))).to.deep.equal([
      `must be at most ${PASSWORD_MAX_LENGTH} characters`,
    ]);
  });

  it('may not be the e-mail address or its local part, in any case', () => {
    const local = valueOf(Email.parse('adalovelace@example.com'));
    expect(messages(PlainPassword.choose('AdaLovelace', local))).to.deep.equal(['must not be the same as the email address']);
    expect(messages(PlainPassword.choose('adalovelace@example.com', local))).to.deep.equal(['must not be the same as the email address']);
  });

  it('for sign-in only needs to be present and bounded', () => {
    expect(PlainPassword.parse('short').ok).to.equal(true);
    expect(messages(PlainPassword.parse(''))).to.deep.equal(['is required']);
    expect(PlainPassword.parse('x'.repeat(PASSWORD_MAX_LENGTH + 1)).ok).to.equal(false);
  });

  it('never serialises its value', () => {
    expect(JSON.stringify({ password: valueOf(PlainPassword.parse('secret-value')) })).not.to.include('secret-value');
  });
});
