import { apiKeyUseCases, type ApiKeyUseCases } from '../application/api-keys/api-key-use-cases.js';
import { API_KEY_REPOSITORY } from '../application/api-keys/ports/api-key-repository.port.js';
import { API_KEY_SECRETS } from '../application/api-keys/ports/api-key-secrets.port.js';
import { OPERATOR_REPOSITORY } from '../application/api-keys/ports/operator-repository.port.js';
import { PORT_TOKENS, type Ports } from '../application/ports/ports.js';
import type { PortGetter } from '../infrastructure/container/bind-port.js';
import { OPERATOR_KEYS } from '../application/ports/operator-keys.port.js';
import { token } from '../application/di-token.js';
import { API_KEY_EVENTS } from '../infrastructure/api-keys/api-key-events.js';
import { API_KEYS } from '../infrastructure/api-keys/api-key-tables.js';
import { KeyedApiKeys } from '../infrastructure/api-keys/keyed-api-keys.js';
import { OPERATORS } from '../infrastructure/api-keys/operator-tables.js';
import { StoreOperatorRepository } from '../infrastructure/api-keys/store-operator.repository.js';
import { StoreApiKeyRepository } from '../infrastructure/api-keys/store-api-key.repository.js';
import { number } from 'yup';
import { type Capability, defineCommand, settingsOf } from '../infrastructure/container/capability.js';
import { CONFIG, POLICIES, STABLE_SECRET, STORAGE } from '../infrastructure/container/tokens.js';
import { derivedKey } from '../infrastructure/security/hmac-refresh-tokens.js';

/** The core's ports the API keys' use cases read, by name. */
const pick = <K extends keyof Ports>(get: PortGetter, names: readonly K[]): Pick<Ports, K> =>
  Object.fromEntries(names.map((name) => [name, get(PORT_TOKENS[name])])) as Pick<Ports, K>;

/** Declares a command of this capability (`npm run admin -- <name>`). */
const command = defineCommand<ApiKeyUseCases>();

/** The API keys' use cases, made once in the container: the registry's and the core's OPERATOR_KEYS share them. */
const API_KEY_USE_CASES = token<ApiKeyUseCases>('ApiKeyUseCases');

const SETTINGS = {
  API_KEY_RATE_LIMIT_PER_MINUTE: {
    schema: number().integer().min(1).max(1_000_000).default(600),
    section: 'Sign-in throttle and rate limits',
    meaning: 'requests one API key (or one operator, with their access token) may make per minute to `/admin/*` and `/oauth/introspect`, counted in the store (one limit across every instance); more get 429',
  },
} as const;

/**
 * API keys: operators' and services' credentials for the admin API and token introspection, made, listed and revoked
 * by `npm run admin`; and the operator role, granted and revoked by it, whose holders use the admin API with their own
 * access token (signed in with a second factor). The core's `OPERATOR_KEYS` is their check.
 */
export const apiKeys: Capability<ApiKeyUseCases> = {
  name: 'api-keys',
  squad: '@account-service/operators',
  folders: ['src/domain/api-keys', 'src/application/api-keys', 'src/infrastructure/api-keys'],
  tables: [API_KEYS, OPERATORS],
  events: API_KEY_EVENTS,
  settings: SETTINGS,
  errors: {
    API_KEY_NOT_FOUND: 'no live API key has this id: answered by `npm run admin -- revoke-key` only',
    ACCOUNT_NOT_FOUND: 'no account has this address: answered by `npm run admin -- grant-operator | revoke-operator` only',
  },
  bind: (bindPort) => {
    bindPort(API_KEY_REPOSITORY, (get) => new StoreApiKeyRepository(get(STORAGE).store));
    bindPort(API_KEY_SECRETS, (get) => new KeyedApiKeys(derivedKey(get(STABLE_SECRET), 'api-key-v1')));
    bindPort(OPERATOR_REPOSITORY, (get) => new StoreOperatorRepository(get(STORAGE).store));
    bindPort(API_KEY_USE_CASES, (get) =>
      apiKeyUseCases(
        {
          apiKeys: get(API_KEY_REPOSITORY),
          apiKeySecrets: get(API_KEY_SECRETS),
          operators: get(OPERATOR_REPOSITORY),
          ...pick(get, ['limits', 'clock', 'ids', 'users', 'verifier', 'sessionViews']),
        },
        { perMinute: settingsOf(get(CONFIG), SETTINGS).API_KEY_RATE_LIMIT_PER_MINUTE, requireVerifiedEmail: get(POLICIES).mail.requireVerifiedEmail },
      ),
    );
    bindPort(OPERATOR_KEYS, (get) => get(API_KEY_USE_CASES).authenticateApiKey);
  },
  useCases: (get) => get(API_KEY_USE_CASES),
  commands: [
    command({
      name: 'create-key',
      summary: 'make an API key; prints it once (ask_<id>.<secret>), with what list-keys shows',
      options: {
        scopes: { value: 'SCOPES', required: true, description: 'what it may do, comma-separated: users:read, users:write, introspect' },
        name: { value: 'NAME', description: 'who or what holds it, shown by list-keys (default: unnamed)' },
      },
      run: async ({ createApiKey }, { scopes, name }, metadata) => ({
        out: await createApiKey.execute({ name: name ?? 'unnamed', scopes, metadata }),
        notice: 'Keep the key now: it is shown this once, and the service keeps only a keyed hash of it.',
      }),
    }),
    command({
      name: 'revoke-key',
      summary: 'revoke an API key at once, on every instance; prints {"revoked": id}',
      arguments: [{ name: 'id', description: "the key's id (list-keys shows it)" }],
      run: async ({ revokeApiKey }, { id }, metadata) => {
        await revokeApiKey.execute({ id, metadata });
        return { out: { revoked: id } };
      },
    }),
    command({
      name: 'grant-operator',
      summary: "make an account an operator: its access token (signed in with a second factor) is accepted by the admin API; idempotent",
      arguments: [{ name: 'email', description: "the account's address" }],
      run: async ({ setOperatorRole }, { email }, metadata) => ({ out: await setOperatorRole.execute({ email, operator: true, metadata }) }),
    }),
    command({
      name: 'revoke-operator',
      summary: "take an account's operator role back: its tokens are refused by the admin API at once, on every instance; idempotent",
      arguments: [{ name: 'email', description: "the account's address" }],
      run: async ({ setOperatorRole }, { email }, metadata) => ({ out: await setOperatorRole.execute({ email, operator: false, metadata }) }),
    }),
    command({
      name: 'list-keys',
      summary: 'every key, oldest first, revoked ones included; never a secret',
      run: async ({ listApiKeys }) => ({ out: await listApiKeys.execute() }),
    }),
  ],
};
