import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { SignInHandler } from '../../application/commands/sign-in.handler.js';
import { SIGN_IN_THROTTLE_SETTINGS, SignInThrottle } from '../../application/commands/sign-in-throttle.js';
import { SignUpHandler } from '../../application/commands/sign-up.handler.js';
import { CLOCK, type Clock } from '../../application/ports/clock.port.js';
import { ID_GENERATOR, type IdGenerator } from '../../application/ports/id-generator.port.js';
import { PASSWORD_BLOCKLIST } from '../../application/ports/password-blocklist.port.js';
import { PASSWORD_HASHER } from '../../application/ports/password-hasher.port.js';
import { TOKEN_ISSUER } from '../../application/ports/token-issuer.port.js';
import type { Config } from '../config/config.js';
import { METRICS } from '../metrics/metrics.token.js';
import { PrometheusMetrics } from '../metrics/prometheus-metrics.js';
import { TimedPasswordHasher } from '../metrics/timed-password-hasher.js';
import { Argon2PasswordHasher } from '../security/argon2-password-hasher.js';
import { BoundedPasswordHasher } from '../security/bounded-password-hasher.js';
import { ConcurrencyLimiter } from '../security/concurrency-limiter.js';
import { JwtTokenIssuer } from '../security/jwt-token-issuer.js';
import { shedWarning } from '../security/shed-warning.js';
import { ZxcvbnPasswordBlocklist } from '../security/zxcvbn-password-blocklist.js';
import type { SigningKey } from '../security/signing-key.js';
import { RandomUuidGenerator, SystemClock } from '../system.js';
import { CONFIG, HASH_LIMITER, SIGNING_KEY } from './config.token.js';

/** Storage-independent bindings: configuration, clock, ids, hashing, tokens and the command handlers. */
export const coreModule = (config: Config, signingKey: SigningKey, clock: Clock = new SystemClock(), logger?: Pick<Logger, 'warn'>) =>
  new ContainerModule(({ bind }) => {
    bind(CONFIG).toConstantValue(config);
    bind(SIGNING_KEY).toConstantValue(signingKey);
    bind(CLOCK).toConstantValue(clock);
    bind(ID_GENERATOR).toConstantValue(new RandomUuidGenerator());
    bind(HASH_LIMITER).toConstantValue(new ConcurrencyLimiter(config.hashing.concurrency, config.hashing.maxQueue, logger && shedWarning(logger)));
    bind(METRICS).toDynamicValue((ctx) => new PrometheusMetrics(ctx.get<ConcurrencyLimiter>(HASH_LIMITER))).inSingletonScope();
    bind(PASSWORD_HASHER)
      .toDynamicValue((ctx) => {
        const timed = new TimedPasswordHasher(new Argon2PasswordHasher(config.argon2), ctx.get<PrometheusMetrics>(METRICS).hashTimed);
        return new BoundedPasswordHasher(timed, ctx.get(HASH_LIMITER));
      })
      .inSingletonScope();
    bind(TOKEN_ISSUER)
      .toDynamicValue((ctx) => new JwtTokenIssuer(ctx.get(SIGNING_KEY), config.jwt, ctx.get(CLOCK), ctx.get<IdGenerator>(ID_GENERATOR)))
      .inSingletonScope();
    bind(PASSWORD_BLOCKLIST).toConstantValue(new ZxcvbnPasswordBlocklist());
    bind(SIGN_IN_THROTTLE_SETTINGS).toConstantValue(config.throttle);
    bind(SignInThrottle).toSelf().inSingletonScope();
    bind(SignUpHandler).toSelf().inSingletonScope();
    bind(SignInHandler).toSelf().inSingletonScope();
  });
