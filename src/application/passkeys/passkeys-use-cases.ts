import type { Policies } from '../registry.js';
import type { PasskeysPorts } from './ports/passkeys-ports.js';
import { AddPasskeyHandler } from './use-cases/add-passkey/add-passkey.handler.js';
import { ListPasskeysHandler } from './use-cases/list-passkeys/list-passkeys.handler.js';
import { PasskeyAuthenticationOptionsHandler } from './use-cases/passkey-authentication-options/passkey-authentication-options.handler.js';
import { PasskeyRegistrationOptionsHandler } from './use-cases/passkey-registration-options/passkey-registration-options.handler.js';
import { RemovePasskeyHandler } from './use-cases/remove-passkey/remove-passkey.handler.js';
import { RenamePasskeyHandler } from './use-cases/rename-passkey/rename-passkey.handler.js';
import { SignInPasskeyHandler } from './use-cases/sign-in-passkey/sign-in-passkey.handler.js';

export type { PasskeyResource } from './policies/passkeys.js';

/**
 * The passkeys' use cases: a passkey registered (its options, then the browser's answer), listed, renamed and
 * removed; the options of a sign-in or a step-up, and the sign-in with a passkey and nothing typed.
 */
export const passkeysUseCases = (ports: PasskeysPorts, policies: Policies) =>
  ({
    passkeyRegistrationOptions: new PasskeyRegistrationOptionsHandler(ports, policies),
    addPasskey: new AddPasskeyHandler(ports, policies.mfa),
    listPasskeys: new ListPasskeysHandler(ports),
    renamePasskey: new RenamePasskeyHandler(ports),
    removePasskey: new RemovePasskeyHandler(ports, policies.mfa),
    passkeyAuthenticationOptions: new PasskeyAuthenticationOptionsHandler(ports),
    signInPasskey: new SignInPasskeyHandler(ports, policies.sessions, policies.mail.requireVerifiedEmail),
  }) as const;

export type PasskeysUseCases = ReturnType<typeof passkeysUseCases>;
