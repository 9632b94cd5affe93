import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/infrastructure/config/config.js';

/** The message of the ConfigError this environment makes loadConfig throw (fails the test when it loads). */
export const configFailure = (env: Record<string, string>): string => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
};
