import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/infrastructure/config/config.js';
import { CAPABILITIES } from '../../src/capabilities/index.js';

/** The message of the ConfigError this environment makes loadConfig throw, given the manifests as every composition root gives them (fails the test when it loads). */
export const configFailure = (env: Record<string, string>): string => {
  try {
    loadConfig(env, CAPABILITIES);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
};

/** The two keys production needs, given as files outside any DATA_DIR a test uses (loadConfig only checks where they are). */
export const PRODUCTION_KEYS = { JWT_PRIVATE_KEY_FILE: '/run/secrets/jwt.pem', PERSONAL_DATA_KEY_FILE: '/run/secrets/personal-data.key' } as const;
