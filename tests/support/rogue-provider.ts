import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What is wrong with the ID token the rogue provider answers next: one defect, or `none` for a correct token. */
export type IdTokenDefect = 'nonce' | 'iss' | 'aud' | 'expired' | 'unknown-key' | 'alg-none' | 'none';

/** A small OpenID provider the test controls: it signs whatever ID token the chosen defect calls for. */
export interface RogueProvider {
  readonly issuer: string;
  setDefect(defect: IdTokenDefect): void;
  /** Follows an authorization URL; resolves to the redirect to the client (code and state). */
  signIn(authorizationUrl: string): Promise<URL>;
  close(): Promise<void>;
}

const KID = 'rogue-1';
const b64 = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

const jwt = (header: object, claims: object, key: KeyObject | null): string => {
  const input = `${b64(header)}.${b64(claims)}`;
  const signature = key === null ? '' : sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url');
  return `${input}.${signature}`;
};

const json = (res: ServerResponse, status: number, body: object): void => {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
};

/** Starts the rogue provider on 127.0.0.1 (`port`, or a free one): discovery, JWKS (ES256), /authorize and /token. */
export async function startRogueProvider(options: { readonly clientId: string; readonly redirectUri: string; readonly port?: number }): Promise<RogueProvider> {
  const signing = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const nonces = new Map<string, string | undefined>();
  let defect: IdTokenDefect = 'none';
  let issuer = '';

  const idTokenFor = (nonce: string | undefined): string => {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: defect === 'iss' ? `${issuer}/other` : issuer,
      sub: 'rogue-user',
      aud: defect === 'aud' ? 'another-client' : options.clientId,
      iat: defect === 'expired' ? now - 7200 : now,
      exp: defect === 'expired' ? now - 3600 : now + 300,
      nonce: defect === 'nonce' ? 'not-the-flows-nonce' : nonce,
      email: 'rogue@example.com',
      email_verified: true,
    };
    if (defect === 'alg-none') return jwt({ alg: 'none', typ: 'JWT' }, claims, null);
    return jwt({ alg: 'ES256', kid: KID, typ: 'JWT' }, claims, defect === 'unknown-key' ? stranger : signing.privateKey);
  };

  const routes: Record<string, (url: URL, req: IncomingMessage, res: ServerResponse) => void> = {
    '/.well-known/openid-configuration': (_url, _req, res) =>
      json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES256'],
        code_challenge_methods_supported: ['S256'],
      }),
    '/jwks': (_url, _req, res) => json(res, 200, { keys: [{ ...signing.publicKey.export({ format: 'jwk' }), kid: KID, use: 'sig', alg: 'ES256' }] }),
    '/authorize': (url, _req, res) => {
      const code = randomBytes(16).toString('base64url');
      nonces.set(code, url.searchParams.get('nonce') ?? undefined);
      const back = new URL(options.redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href }).end();
    },
    '/token': (_url, req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const code = new URLSearchParams(body).get('code') ?? '';
        if (!nonces.has(code)) return json(res, 400, { error: 'invalid_grant' });
        const nonce = nonces.get(code);
        nonces.delete(code);
        json(res, 200, { access_token: randomBytes(16).toString('base64url'), token_type: 'Bearer', expires_in: 300, id_token: idTokenFor(nonce) });
      });
    },
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const route = routes[url.pathname];
    if (route === undefined) return json(res, 404, { error: 'not_found' });
    route(url, req, res);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    setDefect: (next) => void (defect = next),
    signIn: async (authorizationUrl) => {
      const response = await fetch(authorizationUrl, { redirect: 'manual' });
      return new URL(response.headers.get('location') ?? '');
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
