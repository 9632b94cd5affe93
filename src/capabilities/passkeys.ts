import { openedSessionOf } from '../application/shared/auth-result.js';
import { PORT_TOKENS } from '../application/ports/ports.js';
import { AUTHENTICATORS } from '../application/ports/authenticators.port.js';
import { token } from '../application/di-token.js';
import { PASSKEY_EVENTS } from '../application/passkeys/events.js';
import { type PasskeysUseCases, passkeysUseCases } from '../application/passkeys/passkeys-use-cases.js';
import { PasskeyAuthenticators } from '../application/passkeys/policies/passkeys.js';
import { PASSKEY_REPOSITORY } from '../application/passkeys/ports/passkey-repository.port.js';
import { PASSKEY_SIGN_IN } from '../application/passkeys/ports/passkey-sign-in.port.js';
import type { PasskeysPorts } from '../application/passkeys/ports/passkeys-ports.js';
import { WEBAUTHN } from '../application/passkeys/ports/webauthn.port.js';
import { type PortGetter, corePorts } from '../infrastructure/container/bind-port.js';
import { type Capability, derivedOf } from '../infrastructure/container/capability.js';
import { CONFIG, POLICIES, SCHEMA, STORAGE } from '../infrastructure/container/tokens.js';
import { PASSKEYS, WEBAUTHN_CHALLENGES } from '../infrastructure/passkeys/passkey-tables.js';
import { SimpleWebAuthn } from '../infrastructure/passkeys/simple-webauthn.js';
import { StorePasskeyRepository } from '../infrastructure/passkeys/store-passkey.repository.js';
import { WEBAUTHN as RELYING_PARTY, WEBAUTHN_VARIABLES } from '../infrastructure/passkeys/webauthn-settings.js';
import { PASSKEYS_ERRORS } from '../interfaces/http/passkeys/errors.js';
import { PASSKEYS_OPERATIONS } from '../interfaces/http/passkeys/index.js';

/** The use cases, made once in the container. */
const PASSKEYS_USE_CASES = token<PasskeysUseCases>('PasskeysUseCases');

/** Every port the use cases read: the core's, resolved by their tokens, and the capability's own. */
const portsOf = (get: PortGetter): PasskeysPorts => ({
  ...corePorts(get),
  passkeys: get(PASSKEY_REPOSITORY),
  webauthn: get(WEBAUTHN),
});

/**
 * Passkeys (WebAuthn): registered with the holder proved, listed, renamed and removed (never the last way in); a
 * sign-in with nothing typed; and, through the core's AUTHENTICATORS, an answer to a second-factor challenge, a
 * step-up, and the holder's proof of an account without a password.
 */
export const passkeys: Capability<PasskeysUseCases, (typeof PASSKEYS_OPERATIONS)[number]> = {
  name: 'passkeys',
  squad: '@account-service/identity',
  folders: ['src/domain/passkeys', 'src/application/passkeys', 'src/infrastructure/passkeys', 'src/interfaces/http/passkeys'],
  tables: [PASSKEYS, WEBAUTHN_CHALLENGES],
  events: PASSKEY_EVENTS,
  settings: WEBAUTHN_VARIABLES,
  derived: RELYING_PARTY,
  errors: Object.fromEntries(Object.entries(PASSKEYS_ERRORS).map(([code, row]) => [code, row.description])),
  operations: PASSKEYS_OPERATIONS,
  bind: (bindPort) => {
    bindPort(PASSKEY_REPOSITORY, (get) => new StorePasskeyRepository(get(STORAGE).store, get(SCHEMA)));
    bindPort(WEBAUTHN, (get) => new SimpleWebAuthn({ ...derivedOf(get(CONFIG), RELYING_PARTY), timeoutMs: get(CONFIG).mfa.challengeSeconds * 1000 }));
    // What AUTHENTICATORS reads, each by its token: never the whole of the ports, which hold AUTHENTICATORS itself.
    bindPort(AUTHENTICATORS, (get) =>
      new PasskeyAuthenticators({ passkeys: get(PASSKEY_REPOSITORY), webauthn: get(WEBAUTHN), users: get(PORT_TOKENS.users), clock: get(PORT_TOKENS.clock), ids: get(PORT_TOKENS.ids) }),
    );
    bindPort(PASSKEYS_USE_CASES, (get) => passkeysUseCases(portsOf(get), get(POLICIES)));
    // Another capability's sign-in pages sign in with a passkey through the same use case as the API.
    bindPort(PASSKEY_SIGN_IN, (get) => ({
      origins: derivedOf(get(CONFIG), RELYING_PARTY).origins,
      complete: async (response, metadata) => openedSessionOf(await get(PASSKEYS_USE_CASES).signInPasskey.execute({ response, metadata })),
    }));
  },
  useCases: (get) => get(PASSKEYS_USE_CASES),
  commands: [],
};
