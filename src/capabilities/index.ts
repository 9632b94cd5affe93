import { accountConsole } from './account-console.js';
import { apiKeys } from './api-keys.js';
import { emailChange } from './email-change.js';
import { oidcProvider } from './oidc-provider.js';
import { passkeys } from './passkeys.js';
import { secondFactor } from './second-factor.js';
import { socialSignIn } from './social-sign-in.js';
import { webhooks } from './webhooks.js';

/**
 * THE list of the service's capabilities: every composition root (main.ts, admin.ts, the cluster primary, the tests'
 * world) composes with it, and the central lists (tables, bindings, use cases, admin commands, the docs' table of
 * capabilities) are built from it. A new capability is its folders, its manifest and one line here.
 */
export const CAPABILITIES = [apiKeys, socialSignIn, passkeys, secondFactor, emailChange, webhooks, oidcProvider, accountConsole] as const;
