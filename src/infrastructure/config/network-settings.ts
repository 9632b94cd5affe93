/** Whom Fastify trusts for `X-Forwarded-For`: nobody, everybody, a hop count, or a list of addresses/CIDRs. */
export type TrustProxy = boolean | number | string[];

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION = /^(\d{1,9})\s*(ms|s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?)?$/i;
const ADDRESS = /^(loopback|linklocal|uniquelocal|[0-9a-f.:]{2,45}(\/\d{1,3})?)$/i;

/** Milliseconds from `60000`, `30s`, `15m`, `1 minute` or `1h`; null for anything else (or zero). */
export function durationMs(raw: string): number | null {
  const match = DURATION.exec(raw.trim());
  if (!match?.[1]) return null;
  const unit = (match[2] ?? 'ms').toLowerCase();
  const ms = Number(match[1]) * (UNIT_MS[unit === 'ms' ? 'ms' : unit.charAt(0)] ?? 1);
  return ms > 0 ? ms : null;
}

/** `false`, `true`, a hop count (`1`), or comma-separated addresses/CIDRs; null when it is none of these. */
export function trustProxyOf(raw: string): TrustProxy | null {
  const value = raw.trim().toLowerCase();
  if (value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d{1,3}$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  return entries.length > 0 && entries.every((entry) => ADDRESS.test(entry)) ? entries : null;
}

const ORIGIN = /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9a-f:.]+\](:\d{1,5})?$/;

/**
 * CORS_ORIGINS: `*` alone, or comma-separated exact origins (`https://app.example.com`, `http://localhost:5173`:
 * scheme, lower-case host, optional port, no path or trailing slash, as a browser sends Origin). An empty list
 * means no CORS at all; null when the value is none of these.
 */
export function corsOriginsOf(raw: string): string[] | null {
  const entries = raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (entries.length === 1 && entries[0] === '*') return ['*'];
  return entries.every((entry) => ORIGIN.test(entry)) ? [...new Set(entries)] : null;
}

/** WEBAUTHN_ORIGINS: comma-separated origins (no `*`: an assertion names the exact page it was made on); null when malformed. */
export function webAuthnOriginsOf(raw: string): string[] | null {
  const origins = corsOriginsOf(raw);
  return origins === null || origins.includes('*') || origins.length === 0 ? null : origins;
}

/** The origin of an http(s) URL (`PUBLIC_APP_URL`'s, the default WebAuthn origin) and its host name (the default RP ID). */
export const originOf = (url: string): { readonly origin: string; readonly hostname: string } => {
  const parsed = new URL(url);
  return { origin: parsed.origin, hostname: parsed.hostname };
};
