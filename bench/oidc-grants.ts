import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startEntry } from '../tests/support/child-service.js';
import { Browser, freePort } from '../tests/support/oidc-browser.js';
import { type LoadResult, combine, cpuMicrosPerResponse, load, loopMicrosPerResponse } from './load.js';
import { type Server, startServer } from './processes.js';

const APP = 'https://app.example.com/callback';
/** `offline_access` asks a refresh token, and OpenID Connect grants it only with `prompt=consent`. */
const SCOPE = 'openid offline_access';
const PERSON = { name: 'Oidc', lastname: 'Bench', email: 'oidc-bench@example.com', password: 'analytical engine 1843' };
/** Rounds of each grant, each side once a round (BENCH_OIDC_ROUNDS shortens a check). */
const ROUNDS = Number(process.env['BENCH_OIDC_ROUNDS'] ?? 6);
/**
 * Codes made for one round, per connection. The bare provider's default adapter keeps at most 1000 to 2000 entries
 * (an LRU, codes and tokens together): a round's codes must all still be there when they are exchanged.
 */
const CODES_PER_CONNECTION = 4;
/** Refresh requests of one round, per connection. */
const REFRESHES_PER_CONNECTION = 16;
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

export interface OidcGrantsSetup {
  readonly entry: string;
  readonly nodeArgs: string[];
  /** The service's environment (the benchmark's); PORT, PUBLIC_API_URL and DATA_DIR are set here. */
  readonly env: Record<string, string>;
  readonly dataDir: string;
  /** Requests at once, for both providers (the benchmark's CHAINS). */
  readonly connections: number;
}

export interface OidcGrants {
  readonly connections: number;
  readonly rounds: number;
  readonly codesPerRound: number;
  readonly refreshesPerRound: number;
  /** grant_type=authorization_code, the service's /oidc/token and the bare provider's /token. */
  readonly code: LoadResult;
  readonly bareCode: LoadResult;
  /** grant_type=refresh_token, one rotation chain (one grant) per connection. */
  readonly refresh: LoadResult;
  readonly bareRefresh: LoadResult;
  readonly codePerBare: number;
  readonly refreshPerBare: number;
  /** Wall time of the whole part, starting both providers included. */
  readonly seconds: number;
}

/** One provider as the benchmark drives it: where it authorizes and answers tokens, its client, a browser per connection. */
interface Side {
  readonly server: Server;
  readonly origin: string;
  readonly authorizationPath: string;
  readonly tokenPath: string;
  readonly clientId: string;
  readonly basic: string;
  readonly browsers: Browser[];
}

/**
 * One code: an authorization request (PKCE S256, `prompt=consent`) in `browser`, through the provider's pages (its
 * sign-in the first time, its consent each time) to the redirect to the app; the token request's body for it.
 */
async function codeRequest(side: Side, browser: Browser): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    client_id: side.clientId,
    response_type: 'code',
    redirect_uri: APP,
    scope: SCOPE,
    prompt: 'consent',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('base64url'),
  });
  let step = await browser.follow(await browser.go(`${side.origin}${side.authorizationPath}?${query.toString()}`));
  for (let pages = 0; step.page !== null; pages += 1) {
    const html = await step.page.text();
    if (step.page.status !== 200 || pages > 2) throw new Error(`authorization stopped at a page (${step.page.status}): ${html.slice(0, 300)}`);
    step = await browser.submit(html, html.includes('name="password"') ? { email: PERSON.email, password: PERSON.password } : { decision: 'allow' });
  }
  const code = step.url?.searchParams.get('code');
  if (!code) throw new Error(`no code in the redirect: ${step.url?.href}`);
  return new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: APP, code_verifier: verifier }).toString();
}

/** `count` codes, made by every browser at once, each its share one after another; oldest first. */
async function codeRequests(side: Side, count: number): Promise<string[]> {
  const made: string[] = [];
  await Promise.all(
    side.browsers.map(async (browser, i) => {
      for (let n = i; n < count; n += side.browsers.length) made.push(await codeRequest(side, browser));
    }),
  );
  return made;
}

/** The token endpoint under load, one body of `queue` per request, until `amount` answers. */
const tokenLoad = (side: Side, queue: string[], amount: number, connections: number, next?: (status: number, body: string) => string | undefined) =>
  load(
    {
      url: side.origin,
      path: side.tokenPath,
      body: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${side.basic}` },
      // None left (a chain lost): a well-formed request the provider refuses, counted apart from the 200s.
      oneUse: { queue, body: (item) => item || 'grant_type=authorization_code', ...(next ? { next } : {}) },
      amount,
      connections,
      seconds: 60,
      server: side.server,
    },
    200,
  );

const rotated = (status: number, body: string): string | undefined => (status === 200 ? (JSON.parse(body) as { refresh_token?: string }).refresh_token : undefined);
const refreshRequest = (token: string) => new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }).toString();
const basicOf = (id: string, secret: string) => Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64');

/**
 * The OpenID provider's two grants against bare oidc-provider. The service is started as the benchmark starts it, on
 * its own store, with PUBLIC_API_URL naming its port, its app registered with the admin command line; the bare
 * provider (bench/bare-oidc-server.ts) in its own process. Each side gets one browser per connection, signed in and
 * consenting at its pages: one session and grant each. Every round makes a fresh batch of codes on one side right
 * before timing their token requests (codes live 60 s), then on the other; the refresh rounds rotate one chain per
 * connection (the first code of each browser), interleaved the same way. Only token requests are timed.
 */
export async function oidcGrants(setup: OidcGrantsSetup): Promise<OidcGrants> {
  const began = performance.now();
  const { connections } = setup;
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = join(setup.dataDir, 'oidc');
  const env = { ...setup.env, WORKERS: '1', DATA_DIR: dataDir, PORT: String(port), PUBLIC_API_URL: origin };
  const service = await startServer(setup.entry, env, `${dataDir}.log`, setup.nodeArgs);
  let bare: Server | undefined;
  try {
    const signedUp = await fetch(`${origin}/auth/sign-up`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(PERSON) });
    if (signedUp.status !== 201) throw new Error(`seeding the OpenID bench user failed: ${signedUp.status}`);
    // `npm run admin -- create-client`, on the service's store while it runs.
    const admin = execFileSync(process.execPath, ['dist/admin.cjs', 'create-client', '--name', 'Bench', '--redirect-uri', APP], { env: { ...process.env, ...env, LOG_LEVEL: 'silent' }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const app = JSON.parse(admin.trim().split('\n')[0] ?? '{}') as { client_id: string; client_secret: string };
    const bareSecret = randomBytes(24).toString('base64url');
    bare = await startServer('bench/bare-oidc-server.ts', { BARE_OIDC_CLIENT_ID: 'bench', BARE_OIDC_CLIENT_SECRET: bareSecret, BARE_OIDC_REDIRECT_URI: APP }, join(setup.dataDir, 'bare-oidc.log'), setup.nodeArgs);
    const browsers = (at: string) => Array.from({ length: connections }, () => new Browser(at));
    const ours: Side = { server: service, origin, authorizationPath: '/oidc/auth', tokenPath: '/oidc/token', clientId: app.client_id, basic: basicOf(app.client_id, app.client_secret), browsers: browsers(origin) };
    const floor: Side = { server: bare, origin: bare.url, authorizationPath: '/auth', tokenPath: '/token', clientId: 'bench', basic: basicOf('bench', bareSecret), browsers: browsers(bare.url) };

    const codesPerRound = CODES_PER_CONNECTION * connections;
    const codeRound = async (side: Side) => tokenLoad(side, await codeRequests(side, codesPerRound), codesPerRound, connections);
    process.stderr.write(`(i) OpenID provider: ${connections} browsers signing in and consenting at each provider, a round of codes each not counted...\n`);
    await codeRound(ours);
    await codeRound(floor);
    process.stderr.write(`(i) authorization_code: ${ROUNDS} rounds of ${codesPerRound} fresh codes on each provider...\n`);
    const codes: LoadResult[] = [];
    const bareCodes: LoadResult[] = [];
    for (let i = 0; i < ROUNDS; i += 1) {
      codes.push(await codeRound(ours));
      bareCodes.push(await codeRound(floor));
    }

    // After the codes: the bare provider's adapter would have dropped refresh tokens left unused during a round of codes.
    // One code more per browser, each exchanged for a refresh token: one chain per grant, the chains of each side.
    const chainsOf = async (side: Side): Promise<string[]> => {
      const chains: string[] = [];
      await tokenLoad(side, await codeRequests(side, connections), connections, connections, (status, body) => {
        const token = rotated(status, body);
        if (token !== undefined) chains.push(refreshRequest(token));
        return undefined;
      });
      if (chains.length !== connections) throw new Error(`${side.origin}: ${chains.length} of ${connections} codes gave a refresh token`);
      return chains;
    };
    const refreshesPerRound = REFRESHES_PER_CONNECTION * connections;
    const refreshRound = (side: Side, queue: string[]) =>
      tokenLoad(side, queue, refreshesPerRound, connections, (status, body) => {
        const token = rotated(status, body);
        return token === undefined ? undefined : refreshRequest(token);
      });
    const chains = await chainsOf(ours);
    const bareChains = await chainsOf(floor);
    process.stderr.write(`(i) refresh_token: ${ROUNDS} rounds of ${refreshesPerRound} rotations on each provider, after one not counted...\n`);
    await refreshRound(ours, chains);
    await refreshRound(floor, bareChains);
    const refreshes: LoadResult[] = [];
    const bareRefreshes: LoadResult[] = [];
    for (let i = 0; i < ROUNDS; i += 1) {
      refreshes.push(await refreshRound(ours, chains));
      bareRefreshes.push(await refreshRound(floor, bareChains));
    }
    const [code, bareCode, refresh, bareRefresh] = [combine(codes), combine(bareCodes), combine(refreshes), combine(bareRefreshes)];
    return {
      connections,
      rounds: ROUNDS,
      codesPerRound,
      refreshesPerRound,
      code,
      bareCode,
      refresh,
      bareRefresh,
      codePerBare: round(code.okPerSecond / bareCode.okPerSecond, 3),
      refreshPerBare: round(refresh.okPerSecond / bareRefresh.okPerSecond, 3),
      seconds: round((performance.now() - began) / 1000),
    };
  } finally {
    await Promise.all([service.stop(), bare?.stop()]);
  }
}

/** The part's lines of the benchmark's report. */
export function oidcGrantsReport(result: OidcGrants): string[] {
  const line = (what: string, service: LoadResult, bare: LoadResult, ratio: number) =>
    `${what}: ${round(service.okPerSecond)}/s (p99 ${round(service.p99)} ms, ${round(cpuMicrosPerResponse(service))} µs CPU, ${round(loopMicrosPerResponse(service))} µs event loop each; statuses ${JSON.stringify(service.byStatus)}) / bare oidc-provider ${round(bare.okPerSecond)}/s (p99 ${round(bare.p99)} ms, ${round(cpuMicrosPerResponse(bare))} µs CPU each; statuses ${JSON.stringify(bare.byStatus)}) = ${ratio}`;
  return [
    `(i) OpenID provider, ${result.connections} connections, ${result.rounds} interleaved rounds (${result.seconds} s in all):`,
    `  ${line(`authorization_code (confidential, PKCE S256), ${result.codesPerRound} fresh codes a round`, result.code, result.bareCode, result.codePerBare)}`,
    `  ${line(`refresh_token (rotated), ${result.refreshesPerRound} a round`, result.refresh, result.bareRefresh, result.refreshPerBare)}`,
  ];
}

/** `npx tsx bench/oidc-grants.ts`: this part alone, on a fresh build and store (BENCH_OIDC_ROUNDS=2 for a quick check). */
async function runStandalone(): Promise<void> {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), 'account-bench-oidc-'));
  try {
    const { node, entry } = startEntry();
    const env = { NODE_ENV: 'development', LOG_LEVEL: 'info', STORAGE: 'lmdb', RATE_LIMIT_MAX: '1000000', THROTTLE_MAX_FAILURES: '1000', SESSIONS_MAX_PER_ACCOUNT: '1000' };
    const result = await oidcGrants({ entry: join('dist', entry), nodeArgs: node, env, dataDir, connections: 64 });
    for (const text of oidcGrantsReport(result)) console.log(text);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runStandalone();
}
