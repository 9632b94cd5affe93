import * as client from 'openid-client';
import { ProviderFailed, type ProviderRefusal } from '../../../application/social-sign-in/errors.js';

const TIMED_OUT = new Set(['OAUTH_TIMEOUT', 'OAUTH_ABORT']);

/** The refusal an OAuth `error` code means: the user's refusal, the provider's outage, or anything else. */
export const refusalOfError = (error: unknown): ProviderRefusal => {
  if (error === 'access_denied') return 'access_denied';
  if (error === 'temporarily_unavailable' || error === 'server_error') return 'temporarily_unavailable';
  return 'invalid_response';
};

/** Whether a value is a non-null object (a JSON object or any error). */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The `error` of a 200 token response that carries one instead of a token (GitHub does), else undefined. */
const bodyErrorOf = (err: client.ClientError): unknown => {
  const processing = err.cause;
  if (!isRecord(processing) || !isRecord(processing.cause) || !isRecord(processing.cause.body)) return undefined;
  return processing.cause.body.error;
};

const isServerFault = (response: unknown): boolean => response instanceof Response && response.status >= 500;

/**
 * What openid-client, fetch or a provider's answer threw, as the port's ProviderFailed: a timeout, a network failure
 * or a 5xx is `temporarily_unavailable`; an OAuth error body says its own code; any other failed check is
 * `invalid_response`. Pure; never reads or keeps what the error carries beyond its codes.
 */
export function providerFailureOf(err: unknown): ProviderFailed {
  if (err instanceof ProviderFailed) return err;
  if (err instanceof client.ResponseBodyError) {
    return new ProviderFailed(err.status >= 500 ? 'temporarily_unavailable' : refusalOfError(err.error));
  }
  if (err instanceof client.AuthorizationResponseError) return new ProviderFailed(refusalOfError(err.error));
  if (err instanceof client.WWWAuthenticateChallengeError) {
    return new ProviderFailed(err.status >= 500 ? 'temporarily_unavailable' : 'invalid_response');
  }
  if (err instanceof client.ClientError) {
    if (TIMED_OUT.has(err.code ?? '') || isServerFault(err.cause)) return new ProviderFailed('temporarily_unavailable');
    const bodyError = bodyErrorOf(err);
    return new ProviderFailed(bodyError === undefined ? 'invalid_response' : refusalOfError(bodyError));
  }
  if (err instanceof DOMException && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return new ProviderFailed('temporarily_unavailable');
  }
  if (err instanceof TypeError && !('code' in err)) return new ProviderFailed('temporarily_unavailable');
  return new ProviderFailed('invalid_response');
}

const codeOf = (value: unknown): string | undefined => (isRecord(value) && typeof value.code === 'string' ? value.code : undefined);

/**
 * What may be logged of a failure: its class, its code and its cause's code (ECONNREFUSED, UND_ERR_...), never a
 * message or a cause itself (they can hold a response body, and so tokens).
 */
export const loggableOf = (err: unknown): { readonly error: string; readonly code: string | undefined; readonly causeCode: string | undefined } => ({
  error: err instanceof Error ? err.name : typeof err,
  code: codeOf(err),
  causeCode: isRecord(err) ? codeOf(err.cause) : undefined,
});
