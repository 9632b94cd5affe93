import { ContainerModule } from 'inversify';
import { GetAccountActivityHandler } from '../../application/queries/get-account-activity.handler.js';
import { GetCurrentUserHandler } from '../../application/queries/get-current-user.handler.js';
import { ACTIVITY_READ_MODEL } from '../../application/queries/activity-read-model.port.js';
import { USER_READ_MODEL } from '../../application/queries/user-read-model.port.js';
import { CLOCK } from '../../application/ports/clock.port.js';
import { PUBLIC_KEY_SET } from '../../application/ports/public-key-set.port.js';
import { TOKEN_VERIFIER } from '../../application/ports/token-verifier.port.js';
import type { Config } from '../config/config.js';
import { EventLogActivityReadModel } from '../read-model/event-log-activity-read-model.js';
import { RepositoryUserReadModel } from '../read-model/repository-user-read-model.js';
import { JwtTokenVerifier } from '../security/jwt-token-verifier.js';
import type { VerificationKeyRing } from '../security/verification-key-ring.js';

/**
 * The query side, storage-independent: read models over whatever UserRepository and EventLog the storage
 * module binds (memory, LMDB, MongoDB), token verification and the published keys, and the query handlers.
 */
export const queryModule = (config: Config, keyRing: VerificationKeyRing) =>
  new ContainerModule(({ bind }) => {
    bind(USER_READ_MODEL).to(RepositoryUserReadModel).inSingletonScope();
    bind(ACTIVITY_READ_MODEL).to(EventLogActivityReadModel).inSingletonScope();
    bind(PUBLIC_KEY_SET).toConstantValue(keyRing);
    bind(TOKEN_VERIFIER)
      .toDynamicValue((ctx) => new JwtTokenVerifier(keyRing, config.jwt, ctx.get(CLOCK)))
      .inSingletonScope();
    bind(GetCurrentUserHandler).toSelf().inSingletonScope();
    bind(GetAccountActivityHandler).toSelf().inSingletonScope();
  });
