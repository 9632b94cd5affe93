import { addPasskey } from './add-passkey.js';
import { listPasskeys } from './list-passkeys.js';
import { passkeyAuthenticationOptions } from './passkey-authentication-options.js';
import { passkeyRegistrationOptions } from './passkey-registration-options.js';
import { removePasskey } from './remove-passkey.js';
import { renamePasskey } from './rename-passkey.js';
import { signInPasskey } from './sign-in-passkey.js';

/** The passkeys' HTTP operations, in the OpenAPI document's order (their manifest gives them to the server). */
export const PASSKEYS_OPERATIONS = [signInPasskey, passkeyRegistrationOptions, addPasskey, listPasskeys, renamePasskey, removePasskey, passkeyAuthenticationOptions] as const;
