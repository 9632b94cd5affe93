import type { DomainEvent } from './domain-event.js';

/**
 * A sign-in from a device the account has not used recently: none of its live sessions shares this one's device (the
 * user agent's browser and system) and network (IPv4 /24, IPv6 /48). A notice goes to the owner from the outbox.
 */
export type NewDeviceSignedIn = DomainEvent<'NewDeviceSignedIn', { readonly email: string; readonly sessionId: string; readonly device: string; readonly network: string | null }>;

/** Where a session was opened from, as its request said. */
export interface Origin {
  readonly clientIp: string | null;
  readonly userAgent: string | null;
}

const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'], [/\bOPR\//, 'Opera'], [/\bSamsungBrowser\//, 'Samsung Internet'], [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrome\/|\bCriOS\//, 'Chrome'], [/\bSafari\//, 'Safari'],
];
const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\bAndroid\b/, 'Android'], [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'], [/\bWindows\b/, 'Windows'], [/\bCrOS\b/, 'ChromeOS'], [/\bMac OS X\b|\bMacintosh\b/, 'macOS'], [/\bLinux\b/, 'Linux'],
];

const UNKNOWN_DEVICE = 'an unknown device';
const UNKNOWN_BROWSER = 'an unknown browser';
const named = (table: readonly (readonly [RegExp, string])[], userAgent: string): string | undefined => table.find(([pattern]) => pattern.test(userAgent))?.[1];
const nameOf = (browser: string, system: string | undefined): string => (system === undefined ? browser : `${browser} on ${system}`);

/**
 * The device a user agent names, coarsely and in fixed words only ("Firefox on Linux", "an unknown browser on
 * Windows", "an unknown device"): what a notice may show, since a client chooses its user agent's text freely.
 */
export function deviceOf(userAgent: string | null): string {
  if (userAgent === null || userAgent.trim() === '') return UNKNOWN_DEVICE;
  const browser = named(BROWSERS, userAgent);
  const system = named(SYSTEMS, userAgent);
  return browser === undefined && system === undefined ? UNKNOWN_DEVICE : nameOf(browser ?? UNKNOWN_BROWSER, system);
}

/** Every name deviceOf gives. */
const DEVICE_NAMES: ReadonlySet<string> = new Set([
  UNKNOWN_DEVICE,
  ...[...BROWSERS.map(([, browser]) => browser), UNKNOWN_BROWSER].flatMap((browser) => [nameOf(browser, undefined), ...SYSTEMS.map(([, system]) => nameOf(browser, system))]),
]);

/** A device name as a mail may show it: one deviceOf gives, else "an unknown device" (an event recorded with free text). */
export const shownDevice = (device: string): string => (DEVICE_NAMES.has(device) ? device : UNKNOWN_DEVICE);

/** What tells devices apart: deviceOf, but an unknown browser by the first word of its user agent. Never shown. */
function deviceKey(userAgent: string | null): string {
  const known = deviceOf(userAgent);
  return userAgent === null || named(BROWSERS, userAgent) !== undefined ? known : `${known}|${userAgent.trim().split(/[\s/]/)[0] ?? ''}`;
}

/** The eight groups of an IPv6 address (`::` expanded), or null when it is not one. */
function ipv6Groups(ip: string): number[] | null {
  const [head = '', tail, extra] = ip.split('::');
  if (extra !== undefined) return null;
  const part = (text: string): number[] | null => {
    if (text === '') return [];
    const groups = text.split(':').map((group) => (/^[0-9a-f]{1,4}$/i.test(group) ? parseInt(group, 16) : NaN));
    return groups.some(Number.isNaN) ? null : groups;
  };
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  if (!left || !right) return null;
  const missing = 8 - left.length - right.length;
  if ((tail === undefined && missing !== 0) || missing < 0) return null;
  return [...left, ...Array<number>(missing).fill(0), ...right];
}

/** The network an address is in, as compared for a new device: IPv4 /24, IPv6 /48; null when unknown. */
export function networkOf(ip: string | null): string | null {
  if (ip === null) return null;
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/i.exec(ip);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  const groups = ipv6Groups(ip);
  return groups ? `${groups.slice(0, 3).map((group) => group.toString(16)).join(':')}::/48` : null;
}

/** Whether two origins are the same device on the same network. */
export const sameDevice = (a: Origin, b: Origin): boolean => deviceKey(a.userAgent) === deviceKey(b.userAgent) && networkOf(a.clientIp) === networkOf(b.clientIp);

export const newDeviceSignedIn = (userId: string, email: string, sessionId: string, origin: Origin, at: Date): NewDeviceSignedIn => ({
  type: 'NewDeviceSignedIn',
  aggregateId: userId,
  occurredAt: at,
  payload: { email, sessionId, device: deviceOf(origin.userAgent), network: networkOf(origin.clientIp) },
});
