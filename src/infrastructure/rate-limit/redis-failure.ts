/** Where a Redis URL points, for a log line: scheme, host and port, never the user name or the password. */
export function redisTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.hostname}:${parsed.port || '6379'}`;
  } catch {
    return 'an unparsable REDIS_URL';
  }
}

/** The password of a Redis URL as it could appear in a message: as written in the URL, and decoded. */
function secretsOf(url: string): string[] {
  try {
    const { password } = new URL(url);
    return [password, safeDecode(password)].filter((value) => value.length > 0);
  } catch {
    return [];
  }
}

const safeDecode = (value: string): string => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

/**
 * Why a connection to Redis failed, in words an operator can act on (`connect ECONNREFUSED 127.0.0.1:6399`,
 * `WRONGPASS invalid username-password pair...`, a TLS error), with its code when it has one. An error without a
 * message (an AggregateError of several addresses) is told by its parts. The URL's password is never in it: should a driver
 * quote it, it is masked.
 */
export function redisFailure(error: unknown, url: string): { readonly cause: string; readonly code?: string } {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  const parts = error instanceof AggregateError ? error.errors.map((part: unknown) => (part instanceof Error ? part.message : String(part))) : [];
  const said = error instanceof Error ? error.message || parts.join('; ') || (typeof code === 'string' ? code : error.name) : String(error);
  const cause = secretsOf(url).reduce((text, secret) => text.split(secret).join('[redacted]'), said).slice(0, 300);
  return typeof code === 'string' ? { cause, code } : { cause };
}
