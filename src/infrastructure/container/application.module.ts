import { ContainerModule } from 'inversify';
import { type Policies, buildUseCases } from '../../application/registry.js';
import type { Config } from '../config/config.js';
import { corePorts, portBinder } from './bind-port.js';
import { CONFIG, POLICIES, USE_CASES } from './tokens.js';

/** The settings of the application's policies, from the configuration. */
export const policiesOf = (config: Config): Policies => ({
  signInThrottle: config.throttle,
  mfa: config.mfa,
  sessions: config.sessions,
  mail: config.mail,
  delivery: {
    leaseMs: config.mail.leaseMs,
    batchSize: config.mail.batchSize,
    baseBackoffMs: config.mail.retryBaseMs,
    maxBackoffMs: config.mail.retryMaxMs,
    maxAttempts: config.mail.maxAttempts,
    sendConcurrency: config.mail.sendConcurrency,
  },
});

/** The use cases, built by the application's registry from every port bound in the container. */
export const applicationModule = new ContainerModule(({ bind, isBound }) => {
  const bindPort = portBinder(bind, isBound);
  bindPort(POLICIES, (get) => policiesOf(get(CONFIG)));
  bindPort(USE_CASES, (get) => buildUseCases(corePorts(get), get(POLICIES)));
});
