import { ContainerModule } from 'inversify';
import type { Token } from '../../application/di-token.js';
import { PORT_TOKENS, type Ports } from '../../application/ports/ports.js';
import { type Policies, buildUseCases } from '../../application/registry.js';
import type { Config } from '../config/config.js';
import { type PortGetter, portBinder } from './bind-port.js';
import { CONFIG, POLICIES, USE_CASES } from './tokens.js';

/** Every port, by its name: the object the registry gives each handler. */
const resolvePorts = (get: PortGetter): Ports =>
  Object.fromEntries(Object.entries(PORT_TOKENS).map(([name, token]: [string, Token<unknown>]) => [name, get(token)])) as unknown as Ports;

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
  bindPort(USE_CASES, (get) => buildUseCases(resolvePorts(get), get(POLICIES)));
});
