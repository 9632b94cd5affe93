import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import { ensureWritableDataDir } from '../config/startup-checks.js';
import { type SigningKey, loadSigningKey } from './signing-key.js';
import { VerificationKeyRing, loadPreviousPublicKeys } from './verification-key-ring.js';

/**
 * The JWT signing key: JWT_PRIVATE_KEY(_FILE) when set; otherwise, outside production, one generated and kept in
 * DATA_DIR (in memory only with STORAGE=memory), with a warning. Throws SigningKeyError or a DATA_DIR failure.
 */
export function signingKeyFor(config: Config, logger: Pick<Logger, 'warn'>): SigningKey {
  const generatesKey = config.storage.kind !== 'memory' && !config.jwt.privateKeyPem && !config.jwt.privateKeyFile && config.env !== 'production';
  if (generatesKey) ensureWritableDataDir(config.storage.dataDir);
  const { key, origin } = loadSigningKey({
    privateKeyPem: config.jwt.privateKeyPem,
    privateKeyFile: config.jwt.privateKeyFile,
    dataDir: config.storage.dataDir,
    production: config.env === 'production',
    ephemeral: config.storage.kind === 'memory',
  });
  if (origin !== 'configured') {
    logger.warn({ kid: key.kid, origin }, 'no JWT_PRIVATE_KEY configured: using a generated signing key (not for production)');
  }
  return key;
}

/** The keys access tokens are accepted from: the signing key first, then the configured previous public keys (logged). */
export function keyRingFor(signingKey: SigningKey, config: Config, logger: Pick<Logger, 'info'>): VerificationKeyRing {
  const keyRing = new VerificationKeyRing(signingKey, loadPreviousPublicKeys(config.jwt));
  logger.info({ kids: keyRing.publicKeys().map((jwk) => jwk.kid) }, 'access tokens accepted from these keys (signing key first)');
  return keyRing;
}
