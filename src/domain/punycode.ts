const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;
const MAX_CODE_POINT = 0x10ffff;

const digitOf = (code: number): number => {
  if (code >= 0x30 && code <= 0x39) return code - 22;
  if (code >= 0x41 && code <= 0x5a) return code - 0x41;
  if (code >= 0x61 && code <= 0x7a) return code - 0x61;
  return BASE;
};

const adapt = (delta: number, points: number, first: boolean): number => {
  let scaled = first ? Math.floor(delta / DAMP) : Math.floor(delta / 2);
  scaled += Math.floor(scaled / points);
  let k = 0;
  for (; scaled > ((BASE - T_MIN) * T_MAX) >> 1; k += BASE) scaled = Math.floor(scaled / (BASE - T_MIN));
  return k + Math.floor(((BASE - T_MIN + 1) * scaled) / (scaled + SKEW));
};

/**
 * Decodes one Punycode label (RFC 3492, without its `xn--` prefix) to the Unicode text it encodes; null when it is
 * not valid Punycode. Used on host names that URL parsing produced, so it never sees mixed-case or overlong input.
 */
export function decodePunycode(label: string): string | null {
  const cut = label.lastIndexOf('-');
  const output = [...label.slice(0, Math.max(cut, 0))].map((char) => char.charCodeAt(0));
  let n = INITIAL_N;
  let bias = INITIAL_BIAS;
  let i = 0;
  for (let at = cut > 0 ? cut + 1 : 0; at < label.length; ) {
    const before = i;
    for (let weight = 1, k = BASE; ; k += BASE) {
      if (at >= label.length) return null;
      const digit = digitOf(label.charCodeAt(at++));
      if (digit >= BASE) return null;
      i += digit * weight;
      const threshold = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < threshold) break;
      weight *= BASE - threshold;
    }
    const length = output.length + 1;
    bias = adapt(i - before, length, before === 0);
    n += Math.floor(i / length);
    i %= length;
    if (n > MAX_CODE_POINT) return null;
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}
