import 'reflect-metadata';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { SignInHandler } from './application/commands/sign-in.handler.js';
import { SignUpHandler } from './application/commands/sign-up.handler.js';
import { PUBLIC_KEY_SET } from './application/ports/public-key-set.port.js';
import { TOKEN_VERIFIER } from './application/ports/token-verifier.port.js';
import { GetAccountActivityHandler } from './application/queries/get-account-activity.handler.js';
import { GetCurrentUserHandler } from './application/queries/get-current-user.handler.js';
import { type Config, loadConfig } from './infrastructure/config/config.js';
import { type CompositionOverrides, compose } from './infrastructure/container/composition.js';
import { createLogger } from './infrastructure/logging/logger.js';
import { buildHttpServer } from './interfaces/http/server.js';

export interface RunningService {
  readonly app: FastifyInstance;
  readonly url: string;
  readonly config: Config;
  /** Stops accepting connections, lets in-flight requests finish, then closes the store. Idempotent. */
  close(): Promise<void>;
}

export interface StartOptions extends CompositionOverrides {
  readonly logger?: Logger;
}

/** The composition root: config -> container -> handlers -> HTTP server -> listen. */
export async function startService(env: Record<string, string | undefined> = process.env, options: StartOptions = {}): Promise<RunningService> {
  const config = loadConfig(env);
  const logger = options.logger ?? createLogger(config.logLevel);
  const composition = await compose(config, logger, options);
  const app = buildHttpServer({
    logger,
    bodyLimitBytes: config.http.bodyLimitBytes,
    rateLimit: config.rateLimit,
    trustProxy: config.trustProxy,
    handlers: { signUp: composition.container.get(SignUpHandler), signIn: composition.container.get(SignInHandler) },
    account: {
      verifier: composition.container.get(TOKEN_VERIFIER),
      currentUser: composition.container.get(GetCurrentUserHandler),
      activity: composition.container.get(GetAccountActivityHandler),
    },
    publicKeys: composition.container.get(PUBLIC_KEY_SET),
  });
  let url: string;
  try {
    url = await app.listen({ port: config.http.port, host: config.http.host });
  } catch (error) {
    await composition.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= app.close().then(() => composition.close()));
  return { app, url, config, close };
}

const SHUTDOWN_GRACE_MS = 10_000;

async function runFromCommandLine(): Promise<void> {
  let service: RunningService;
  try {
    service = await startService();
  } catch (error) {
    process.stderr.write(`account-service failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  const stop = (signal: string) => {
    service.app.log.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        service.app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void runFromCommandLine();
}
