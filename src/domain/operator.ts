/**
 * What an operator's or a service's key may do: read accounts, change them (the admin API), and introspect access
 * tokens (RFC 7662). The core's operations ask for these; the API keys capability makes keys that hold them.
 */
export const API_KEY_SCOPES = ['users:read', 'users:write', 'introspect'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
