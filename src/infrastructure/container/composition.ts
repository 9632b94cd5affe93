import { Container, type ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import type { Clock } from '../../application/ports/clock.port.js';
import type { Config } from '../config/config.js';
import { LmdbStore } from '../lmdb/lmdb-store.js';
import { MongoStore } from '../mongo/mongo-store.js';
import { loadSigningKey } from '../security/signing-key.js';
import { VerificationKeyRing, loadPreviousPublicKeys } from '../security/verification-key-ring.js';
import { coreModule } from './core.module.js';
import { lmdbModule } from './lmdb.module.js';
import { memoryModule } from './memory.module.js';
import { mongoModule } from './mongo.module.js';
import { queryModule } from './query.module.js';

export interface Composition {
  readonly container: Container;
  /** Releases what the adapters hold (store handles, pools). Idempotent. */
  close(): Promise<void>;
}

interface StorageBinding {
  readonly module: ContainerModule;
  close(): Promise<void>;
}

const storages: Record<Config['storage']['kind'], (config: Config) => Promise<StorageBinding>> = {
  memory: () => Promise.resolve({ module: memoryModule(), close: () => Promise.resolve() }),
  lmdb: (config) => {
    const store = LmdbStore.open(config.storage.dataDir);
    return Promise.resolve({ module: lmdbModule(store), close: () => store.close() });
  },
  mongodb: async ({ storage: { mongodb } }) => {
    const store = await MongoStore.open({ uri: mongodb.uri ?? '', dbName: mongodb.dbName });
    return { module: mongoModule(store), close: () => store.close() };
  },
};

export interface CompositionOverrides {
  readonly clock?: Clock;
}

/** Wires every adapter chosen by the configuration into one container. */
export async function compose(config: Config, logger: Logger, overrides: CompositionOverrides = {}): Promise<Composition> {
  const { key, origin } = loadSigningKey({
    privateKeyPem: config.jwt.privateKeyPem,
    privateKeyFile: config.jwt.privateKeyFile,
    dataDir: config.storage.dataDir,
    production: config.env === 'production',
  });
  if (origin !== 'configured') {
    logger.warn({ kid: key.kid, origin }, 'no JWT_PRIVATE_KEY configured: using a signing key kept in DATA_DIR (not for production)');
  }
  const keyRing = new VerificationKeyRing(key, loadPreviousPublicKeys(config.jwt));
  logger.info({ kids: keyRing.publicKeys().map((jwk) => jwk.kid) }, 'access tokens accepted from these keys (signing key first)');
  const storage = await storages[config.storage.kind](config);
  const container = new Container();
  container.load(coreModule(config, key, overrides.clock, logger), storage.module, queryModule(config, keyRing));
  let closed: Promise<void> | undefined;
  return { container, close: () => (closed ??= storage.close()) };
}
