// A web app that signs people in through the service (docs/oidc-provider.md): openid-client, the code flow with PKCE,
// state and nonce kept server-side and bound to the browser by a cookie, the ID token's claims shown.
// Run: ISSUER=http://localhost:3000 CLIENT_ID=… CLIENT_SECRET=… PORT=4000 node docs/examples/sign-in-app.mjs
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import * as client from 'openid-client';

const issuer = new URL(process.env.ISSUER ?? 'http://localhost:3000');
const port = Number(process.env.PORT ?? 4000);
const redirectUri = `http://localhost:${port}/callback`;
// Plain http only for a service on this machine (npm start); a deployed issuer is https.
const insecure = issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : undefined;
const config = await client.discovery(issuer, process.env.CLIENT_ID, process.env.CLIENT_SECRET, undefined, insecure);

/** Sign-ins under way, by a random id the browser holds in an HttpOnly cookie: PKCE verifier, state, nonce. */
const pending = new Map();

const cookieOf = (request) => /(?:^|;\s*)signin=([\w-]+)/.exec(request.headers.cookie ?? '')?.[1];
const text = (response, status, body, headers = {}) => response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(body);

createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', redirectUri);
  if (url.pathname === '/') {
    const id = randomBytes(16).toString('base64url');
    const checks = { pkceCodeVerifier: client.randomPKCECodeVerifier(), expectedState: client.randomState(), expectedNonce: client.randomNonce() };
    pending.set(id, checks);
    setTimeout(() => pending.delete(id), 600_000).unref();
    const to = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(checks.pkceCodeVerifier),
      code_challenge_method: 'S256',
      state: checks.expectedState,
      nonce: checks.expectedNonce,
    });
    return text(response, 302, '', { location: to.href, 'set-cookie': `signin=${id}; Path=/callback; HttpOnly; SameSite=Lax; Max-Age=600` });
  }
  if (url.pathname === '/callback') {
    const id = cookieOf(request);
    const checks = id === undefined ? undefined : pending.get(id);
    pending.delete(id);
    if (checks === undefined) return text(response, 400, 'This sign-in was not started here, or it expired: start again at /\n');
    try {
      // Checks the code's state, iss (RFC 9207), the PKCE verifier, the ID token's signature, audience and nonce.
      const tokens = await client.authorizationCodeGrant(config, url, checks);
      const { sub, email, name, amr } = tokens.claims();
      return text(response, 200, `Signed in as ${name} <${email}> (account ${sub}, by ${amr.join('+')})\n`, { 'set-cookie': 'signin=; Path=/callback; Max-Age=0' });
    } catch (error) {
      return text(response, 400, `The sign-in failed: ${error.error ?? error.message}\n`);
    }
  }
  return text(response, 404, 'Not found\n');
}).listen(port, () => console.log(`App on http://localhost:${port}: open it to sign in`));
