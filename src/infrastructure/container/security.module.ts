import { ContainerModule } from 'inversify';
import { CLOCK } from '../../application/ports/clock.port.js';
import { HASHING_ADMISSION } from '../../application/ports/hashing-admission.port.js';
import { ID_GENERATOR } from '../../application/ports/id-generator.port.js';
import { ONE_TIME_TOKENS } from '../../application/ports/one-time-tokens.port.js';
import { PASSWORD_BLOCKLIST } from '../../application/ports/password-blocklist.port.js';
import { PASSWORD_HASHER } from '../../application/ports/password-hasher.port.js';
import { PUBLIC_KEY_SET } from '../../application/ports/public-key-set.port.js';
import { REFRESH_TOKENS } from '../../application/ports/refresh-tokens.port.js';
import { TOKEN_ISSUER } from '../../application/ports/token-issuer.port.js';
import { TOKEN_VERIFIER } from '../../application/ports/token-verifier.port.js';
import type { Config } from '../config/config.js';
import { PrimaryPasswordHasher } from '../cluster/primary-hashing.js';
import { isOurWorker } from '../cluster/worker.js';
import { TimedPasswordHasher } from '../metrics/timed-password-hasher.js';
import { Argon2PasswordHasher } from '../security/argon2-password-hasher.js';
import { BoundedPasswordHasher } from '../security/bounded-password-hasher.js';
import { ConcurrencyLimiter } from '../security/concurrency-limiter.js';
import { HmacOneTimeTokens } from '../security/hmac-one-time-tokens.js';
import { HmacRefreshTokens, derivedKey, refreshTokenKey } from '../security/hmac-refresh-tokens.js';
import { JwtTokenIssuer } from '../security/jwt-token-issuer.js';
import { JwtTokenVerifier } from '../security/jwt-token-verifier.js';
import { keyRingFor, signingKeyFor } from '../security/service-keys.js';
import { shedWarning } from '../security/shed-warning.js';
import type { SigningKey } from '../security/signing-key.js';
import { ZxcvbnPasswordBlocklist } from '../security/zxcvbn-password-blocklist.js';
import { portBinder } from './bind-port.js';
import { CONFIG, HASH_LIMITER, KEY_RING, LOGGER, METRICS, PERSONAL_DATA_KEYS, PRIMARY_HASHER, SERVICE_SECRET, SIGNING_KEY, STABLE_SECRET } from './tokens.js';
import { OPERATOR_KEYS } from '../../application/ports/operator-keys.port.js';
import { REAUTHENTICATIONS } from '../../application/ports/reauthentications.port.js';
import { AUTHENTICATORS, NO_AUTHENTICATORS } from '../../application/ports/authenticators.port.js';
import { NOTHING_PENDING, PENDING_CHANGES } from '../../application/ports/pending-changes.port.js';
import { MFA, MFA_STATUS, NO_MFA, NO_MFA_STATUS } from '../../application/ports/mfa.port.js';
import { InvalidToken } from '../../application/errors.js';
import { PersonalDataKeys, personalDataSecret } from '../security/personal-data-keys.js';

/** REFRESH_TOKEN_SECRET when set; otherwise the signing key's private bytes (HKDF separates the two uses). */
const refreshSecret = (config: Config, signingKey: SigningKey): Buffer =>
  config.sessions.refreshTokenSecret === undefined
    ? signingKey.privateKey.export({ format: 'der', type: 'pkcs8' })
    : Buffer.from(config.sessions.refreshTokenSecret, 'utf8');

/** Keys, password hashing (bounded by the admission limiter, timed), access, refresh and one-time tokens, the common-password list. */
export const securityModule = new ContainerModule(({ bind, isBound }) => {
  const bindPort = portBinder(bind, isBound);
  bindPort(SIGNING_KEY, (get) => signingKeyFor(get(CONFIG), get(LOGGER)));
  bindPort(KEY_RING, (get) => keyRingFor(get(SIGNING_KEY), get(CONFIG), get(LOGGER)));
  bindPort(PUBLIC_KEY_SET, (get) => get(KEY_RING));
  bindPort(HASH_LIMITER, (get) => new ConcurrencyLimiter(get(CONFIG).hashing.concurrency, get(CONFIG).hashing.maxQueue, shedWarning(get(LOGGER))));
  bindPort(PRIMARY_HASHER, (get) => (isOurWorker() ? new PrimaryPasswordHasher(get(CONFIG).argon2, get(METRICS).hashTimed, get(HASH_LIMITER)) : null));
  bindPort(HASHING_ADMISSION, (get) => get(PRIMARY_HASHER)?.admission ?? get(HASH_LIMITER));
  bindPort(
    PASSWORD_HASHER,
    (get) =>
      new BoundedPasswordHasher(get(PRIMARY_HASHER) ?? new TimedPasswordHasher(new Argon2PasswordHasher(get(CONFIG).argon2), get(METRICS).hashTimed), get(HASH_LIMITER)),
  );
  bindPort(TOKEN_ISSUER, (get) => new JwtTokenIssuer(get(SIGNING_KEY), get(CONFIG).jwt, get(CLOCK), get(ID_GENERATOR)));
  bindPort(TOKEN_VERIFIER, (get) => new JwtTokenVerifier(get(KEY_RING), get(CONFIG).jwt, get(CLOCK)));
  bindPort(REFRESH_TOKENS, (get) => new HmacRefreshTokens(refreshTokenKey(get(SERVICE_SECRET))));
  bindPort(ONE_TIME_TOKENS, (get) => new HmacOneTimeTokens(derivedKey(get(SERVICE_SECRET), 'one-time-token-v1')));
  bindPort(PASSWORD_BLOCKLIST, () => new ZxcvbnPasswordBlocklist());
  bindPort(SERVICE_SECRET, (get) => refreshSecret(get(CONFIG), get(SIGNING_KEY)));
  bindPort(STABLE_SECRET, (get) => {
    const config = get(CONFIG);
    const { storage } = config;
    return personalDataSecret({ configured: config.sessions.personalDataKey, configuredFile: config.sessions.personalDataKeyFile, dataDir: storage.dataDir, production: config.env === 'production', ephemeral: storage.kind === 'memory' });
  });
  bindPort(PERSONAL_DATA_KEYS, (get) => new PersonalDataKeys(get(STABLE_SECRET)));
  // Without a capability that provides operators' keys (src/capabilities/api-keys.ts), every key is refused.
  bindPort(OPERATOR_KEYS, () => ({ execute: () => Promise.reject(new InvalidToken()) }));
  // Without a capability that provides re-authentications elsewhere (src/capabilities/social-sign-in.ts), every code is refused.
  bindPort(REAUTHENTICATIONS, () => ({ redeem: () => Promise.resolve('code' as const) }));
  // Without a capability that provides authenticators (src/capabilities/passkeys.ts), none is held or asked for.
  bindPort(AUTHENTICATORS, () => NO_AUTHENTICATORS);
  // Without a capability that keeps changes pending (src/capabilities/email-change.ts), a new password ends none.
  bindPort(PENDING_CHANGES, () => NOTHING_PENDING);
  // Without a capability that provides a second factor (src/capabilities/second-factor.ts), no account has one.
  bindPort(MFA, () => NO_MFA);
  bindPort(MFA_STATUS, () => NO_MFA_STATUS);
});
