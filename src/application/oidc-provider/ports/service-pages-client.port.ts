/**
 * The service's own consoles (the account console at `/account/`, the admin console at `/console/`) as an app of the
 * provider: a built-in, first-party, public client (code + PKCE in the page's script, no consent asked). Asking for
 * `resource={issuer}{API_PATH}`, it gets an access token of the service's own API for the session the pages' sign-in
 * opened (`GET /auth/sessions` marks it current), held in the page's memory only (docs/architecture.md).
 */
export const SERVICE_PAGES_CLIENT = {
  clientId: 'service-consoles',
  /** The pages a code comes back to, under the issuer (matched exactly). */
  redirectPaths: ['/account/', '/console/'],
  /** The resource indicator of the service's API, under the issuer (RFC 8707). */
  apiPath: '/auth',
  /** The scope of that resource the consoles ask for. */
  apiScope: 'account',
} as const;
