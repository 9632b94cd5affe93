// An MCP server (or any API) that accepts only the service's access tokens made for it (docs/oidc-provider.md).
// It publishes its RFC 9728 metadata, names it in every 401, and checks each token with the provider's JWKS alone:
// signature (ES256), issuer, audience (its own resource URI), type (RFC 9068's at+jwt), expiry and scope.
// Run: ISSUER=http://localhost:3000 RESOURCE=http://localhost:8080/mcp PORT=8080 node docs/examples/mcp-resource-server.mjs
import { createServer } from 'node:http';
import { createRemoteJWKSet, jwtVerify } from 'jose';

const issuer = process.env.ISSUER ?? 'http://localhost:3000';
const resource = process.env.RESOURCE ?? 'http://localhost:8080/mcp';
const port = Number(process.env.PORT ?? 8080);
const scope = 'mcp:tools';

// The provider's metadata names its JWKS; the keys are fetched once and again when a token names a new one.
const provider = await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json();
const keys = createRemoteJWKSet(new URL(provider.jwks_uri));

const { pathname } = new URL(resource);
const metadataPath = `/.well-known/oauth-protected-resource${pathname === '/' ? '' : pathname}`;
const metadataUrl = `${new URL(resource).origin}${metadataPath}`;
const metadata = { resource, authorization_servers: [issuer], scopes_supported: [scope], bearer_methods_supported: ['header'] };

const send = (response, status, body, headers = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
};
const challenge = (error) => ({ 'www-authenticate': `Bearer resource_metadata="${metadataUrl}"${error ? `, error="${error}"` : ''}` });

createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', resource);
  if (request.method === 'GET' && url.pathname === metadataPath) return send(response, 200, metadata);
  if (url.pathname !== pathname) return send(response, 404, { error: 'not_found' });
  const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (token === undefined) return send(response, 401, { error: 'unauthorized' }, challenge());
  let claims;
  try {
    ({ payload: claims } = await jwtVerify(token, keys, { issuer, audience: resource, typ: 'at+jwt', algorithms: ['ES256'] }));
  } catch {
    return send(response, 401, { error: 'invalid_token' }, challenge('invalid_token'));
  }
  if (!String(claims.scope ?? '').split(' ').includes(scope)) return send(response, 403, { error: 'insufficient_scope' }, challenge('insufficient_scope'));
  // The person (sub) and the app (client_id) the token speaks for: what the tools act as.
  return send(response, 200, { jsonrpc: '2.0', id: 1, result: { sub: claims.sub, client_id: claims.client_id } });
}).listen(port, () => console.log(`MCP server on ${resource}, trusting ${issuer}`));
