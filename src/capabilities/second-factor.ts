import { openedSessionOf } from '../application/shared/auth-result.js';
import { PORT_TOKENS } from '../application/ports/ports.js';
import { MFA, MFA_STATUS } from '../application/ports/mfa.port.js';
import { token } from '../application/di-token.js';
import { SECOND_FACTOR_EVENTS } from '../application/second-factor/events.js';
import { TotpMfa } from '../application/second-factor/policies/totp.js';
import { FACTOR_SECRETS } from '../application/second-factor/ports/factor-secrets.port.js';
import { SECOND_FACTOR_REPOSITORY } from '../application/second-factor/ports/second-factor-repository.port.js';
import type { SecondFactorPorts } from '../application/second-factor/ports/second-factor-ports.js';
import { TOTP } from '../application/second-factor/ports/totp.port.js';
import { SECOND_FACTOR_SIGN_IN } from '../application/second-factor/ports/second-factor-sign-in.port.js';
import { type SecondFactorUseCases, secondFactorUseCases } from '../application/second-factor/second-factor-use-cases.js';
import { type PortGetter, corePorts } from '../infrastructure/container/bind-port.js';
import type { Capability } from '../infrastructure/container/capability.js';
import { CONFIG, POLICIES, SERVICE_SECRET, STORAGE } from '../infrastructure/container/tokens.js';
import { MFA_CHALLENGES, TOTP_FACTORS } from '../infrastructure/second-factor/factor-tables.js';
import { KeyedFactorSecrets } from '../infrastructure/second-factor/keyed-factor-secrets.js';
import { OtpAuthTotp } from '../infrastructure/second-factor/otpauth-totp.js';
import { StoreSecondFactorRepository } from '../infrastructure/second-factor/store-second-factor.repository.js';
import { SECOND_FACTOR_OPERATIONS } from '../interfaces/http/second-factor/index.js';

/** The use cases, made once in the container. */
const SECOND_FACTOR_USE_CASES = token<SecondFactorUseCases>('SecondFactorUseCases');

/** Every port the use cases read: the core's, resolved by their tokens, and the capability's own. */
const portsOf = (get: PortGetter): SecondFactorPorts => ({
  ...corePorts(get),
  secondFactors: get(SECOND_FACTOR_REPOSITORY),
  totp: get(TOTP),
  factorSecrets: get(FACTOR_SECRETS),
});

/**
 * The second factor: an authenticator app (TOTP) and its recovery codes, enrolled with the holder proved, confirmed,
 * removed, renewed; the challenge a sign-in waits on and its answer (a code, or an authenticator's through the core's
 * AUTHENTICATORS); step-up; an operator's removal. Through the core's MFA it tells sign-in and step-up whether an
 * account has one, opens the challenge and proves a holder's code. Its settings (MFA_*) are the core's: step-up and
 * the passkeys' ceremonies read them too.
 */
export const secondFactor: Capability<SecondFactorUseCases, (typeof SECOND_FACTOR_OPERATIONS)[number]> = {
  name: 'second-factor',
  squad: '@account-service/identity',
  folders: ['src/domain/second-factor', 'src/application/second-factor', 'src/infrastructure/second-factor', 'src/interfaces/http/second-factor'],
  tables: [TOTP_FACTORS, MFA_CHALLENGES],
  events: SECOND_FACTOR_EVENTS,
  settings: {},
  errors: {},
  operations: SECOND_FACTOR_OPERATIONS,
  bind: (bindPort) => {
    bindPort(SECOND_FACTOR_REPOSITORY, (get) => new StoreSecondFactorRepository(get(STORAGE).store));
    bindPort(TOTP, (get) => new OtpAuthTotp(get(CONFIG).sessions.mfaIssuer));
    bindPort(FACTOR_SECRETS, (get) => {
      const { mfaSecretKey } = get(CONFIG).sessions;
      return new KeyedFactorSecrets(mfaSecretKey === undefined ? get(SERVICE_SECRET) : Buffer.from(mfaSecretKey, 'utf8'));
    });
    // What MFA reads, each by its token: never the whole of the ports, which hold MFA itself.
    bindPort(MFA, (get) =>
      new TotpMfa(
        { secondFactors: get(SECOND_FACTOR_REPOSITORY), authenticators: get(PORT_TOKENS.authenticators), totp: get(TOTP), factorSecrets: get(FACTOR_SECRETS), clock: get(PORT_TOKENS.clock), ids: get(PORT_TOKENS.ids) },
        get(CONFIG).mfa,
      ),
    );
    // The query side reads the factor's record itself: `/auth/me` goes through no policy.
    bindPort(MFA_STATUS, (get) => get(SECOND_FACTOR_REPOSITORY));
    bindPort(SECOND_FACTOR_USE_CASES, (get) => secondFactorUseCases(portsOf(get), get(POLICIES)));
    // Another capability's sign-in pages complete a challenge through the same use case as the API.
    bindPort(SECOND_FACTOR_SIGN_IN, (get) => ({
      complete: async ({ mfaToken, code, metadata }) => {
        const kind = /^\d{6}$/.test(code.trim()) ? { code: code.trim() } : { recoveryCode: code };
        return openedSessionOf(await get(SECOND_FACTOR_USE_CASES).signInMfa.execute({ mfaToken, ...kind, metadata }));
      },
    }));
  },
  useCases: (get) => get(SECOND_FACTOR_USE_CASES),
  commands: [],
};
