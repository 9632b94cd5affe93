/** Every form the service could write `needle` in: UTF-8, UTF-16 (both byte orders), hex (both cases), base64 and base64url at each alignment. */
export function encodingsOf(needle: string): Buffer[] {
  const utf8 = Buffer.from(needle, 'utf8');
  const utf16 = Buffer.from(needle, 'utf16le');
  const hex = utf8.toString('hex');
  const forms = [utf8, utf16, Buffer.from(utf16).swap16(), Buffer.from(hex), Buffer.from(hex.toUpperCase())];
  for (const shift of [0, 1, 2]) {
    // The characters that depend on the needle's bytes only, whatever comes before and after it.
    const base64 = Buffer.concat([Buffer.alloc(shift), utf8]).toString('base64').slice([0, 2, 3][shift], Math.floor((shift + utf8.length) / 3) * 4);
    forms.push(Buffer.from(base64), Buffer.from(base64.replace(/\+/g, '-').replace(/\//g, '_')));
  }
  return forms;
}


/**
 * Whether `text` (records as JSON) holds `value` as written, not as three letters that happen to occur inside a
 * sealed value's base64: a match must not touch a base64 or base64url character on either side. A bare substring
 * search for a short value ("Ada") finds one in a few kilobytes of random base64 about once in fifty runs.
 */
export function holdsInClear(text: string, value: string): boolean {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![A-Za-z0-9+/_-])${escaped}(?![A-Za-z0-9+/=_-])`).test(text);
}
