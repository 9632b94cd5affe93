import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { CLOCK, type Clock } from '../../application/ports/clock.port.js';
import { HASHING_ADMISSION } from '../../application/ports/hashing-admission.port.js';
import { ID_GENERATOR } from '../../application/ports/id-generator.port.js';
import { PASSWORD_BLOCKLIST } from '../../application/ports/password-blocklist.port.js';
import { PASSWORD_HASHER } from '../../application/ports/password-hasher.port.js';
import { PUBLIC_KEY_SET } from '../../application/ports/public-key-set.port.js';
import { TOKEN_ISSUER } from '../../application/ports/token-issuer.port.js';
import { TOKEN_VERIFIER } from '../../application/ports/token-verifier.port.js';
import { ACTIVITY_READ_MODEL } from '../../application/ports/activity-read-model.port.js';
import { MAIL_SENDER } from '../../application/ports/mail-sender.port.js';
import { ONE_TIME_TOKENS } from '../../application/ports/one-time-tokens.port.js';
import { REFRESH_TOKENS } from '../../application/ports/refresh-tokens.port.js';
import { SESSION_READ_MODEL } from '../../application/ports/session-read-model.port.js';
import type { Config } from '../config/config.js';
import { PrometheusMetrics } from '../metrics/prometheus-metrics.js';
import { TimedPasswordHasher } from '../metrics/timed-password-hasher.js';
import { EventLogActivityReadModel } from '../read-model/event-log-activity-read-model.js';
import { RepositorySessionReadModel } from '../read-model/repository-session-read-model.js';
import { Argon2PasswordHasher } from '../security/argon2-password-hasher.js';
import { BoundedPasswordHasher } from '../security/bounded-password-hasher.js';
import { ConcurrencyLimiter } from '../security/concurrency-limiter.js';
import { HmacOneTimeTokens } from '../security/hmac-one-time-tokens.js';
import { HmacRefreshTokens, derivedKey, refreshTokenKey } from '../security/hmac-refresh-tokens.js';
import { FileMailSender } from '../mail/file-mail-sender.js';
import { SmtpMailSender } from '../mail/smtp-mail-sender.js';
import { join } from 'node:path';
import { JwtTokenIssuer } from '../security/jwt-token-issuer.js';
import { JwtTokenVerifier } from '../security/jwt-token-verifier.js';
import { shedWarning } from '../security/shed-warning.js';
import type { SigningKey } from '../security/signing-key.js';
import type { VerificationKeyRing } from '../security/verification-key-ring.js';
import { ZxcvbnPasswordBlocklist } from '../security/zxcvbn-password-blocklist.js';
import { RandomUuidGenerator, SystemClock } from '../system.js';
import { portBinder } from './bind-port.js';
import { CONFIG, HASH_LIMITER, KEY_RING, METRICS, SIGNING_KEY } from './tokens.js';

export interface CoreAdapters {
  readonly config: Config;
  readonly signingKey: SigningKey;
  readonly keyRing: VerificationKeyRing;
  readonly clock?: Clock | undefined;
  readonly logger?: Pick<Logger, 'warn' | 'info'> | undefined;
}

/** REFRESH_TOKEN_SECRET when set; otherwise the signing key's private bytes (HKDF separates the two uses). */
const refreshSecret = (config: Config, signingKey: SigningKey): Buffer =>
  config.sessions.refreshTokenSecret === undefined
    ? signingKey.privateKey.export({ format: 'der', type: 'pkcs8' })
    : Buffer.from(config.sessions.refreshTokenSecret, 'utf8');

/** Storage-independent adapters: clock, ids, hashing (bounded and timed), tokens, keys, metrics, the activity and session views. */
export const coreModule = ({ config, signingKey, keyRing, clock = new SystemClock(), logger }: CoreAdapters) =>
  new ContainerModule(({ bind }) => {
    const port = portBinder(bind);
    port.constant(CONFIG, config);
    port.constant(SIGNING_KEY, signingKey);
    port.constant(KEY_RING, keyRing);
    port.constant(CLOCK, clock);
    port.constant(ID_GENERATOR, new RandomUuidGenerator());
    port.constant(HASH_LIMITER, new ConcurrencyLimiter(config.hashing.concurrency, config.hashing.maxQueue, logger && shedWarning(logger)));
    port.singleton(HASHING_ADMISSION, (get) => get(HASH_LIMITER));
    port.singleton(METRICS, (get) => new PrometheusMetrics(get(HASH_LIMITER)));
    port.singleton(
      PASSWORD_HASHER,
      (get) => new BoundedPasswordHasher(new TimedPasswordHasher(new Argon2PasswordHasher(config.argon2), get(METRICS).hashTimed), get(HASH_LIMITER)),
    );
    port.singleton(TOKEN_ISSUER, (get) => new JwtTokenIssuer(get(SIGNING_KEY), config.jwt, get(CLOCK), get(ID_GENERATOR)));
    port.singleton(TOKEN_VERIFIER, (get) => new JwtTokenVerifier(get(KEY_RING), config.jwt, get(CLOCK)));
    port.singleton(PUBLIC_KEY_SET, (get) => get(KEY_RING));
    port.constant(PASSWORD_BLOCKLIST, new ZxcvbnPasswordBlocklist());
    port.adapter(ACTIVITY_READ_MODEL, EventLogActivityReadModel);
    port.adapter(SESSION_READ_MODEL, RepositorySessionReadModel);
    port.constant(REFRESH_TOKENS, new HmacRefreshTokens(refreshTokenKey(refreshSecret(config, signingKey))));
    port.constant(ONE_TIME_TOKENS, new HmacOneTimeTokens(derivedKey(refreshSecret(config, signingKey), 'one-time-token-v1')));
    port.constant(
      MAIL_SENDER,
      config.mail.smtpUrl === undefined
        ? new FileMailSender(join(config.storage.dataDir, 'mail'), config.mail.from, logger ?? { info: () => undefined })
        : new SmtpMailSender(config.mail.smtpUrl, config.mail.from),
    );
  });
