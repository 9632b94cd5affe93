import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

/**
 * The floor of the OpenID provider's grants: oidc-provider as it comes (the version in node_modules, its default
 * in-memory adapter), configured only where the service's grants need it: one confidential client authenticating with
 * client_secret_basic, PKCE S256 required, ID tokens signed ES256 as the service's are, refresh tokens for
 * `offline_access`, rotated on every use. The interaction a person completes at the service's pages is completed here
 * at once: the one account signs in, and consent adds what is missing to the session's grant, as the service's consent
 * does. Given by the benchmark: PORT, BARE_OIDC_CLIENT_ID, BARE_OIDC_CLIENT_SECRET, BARE_OIDC_REDIRECT_URI.
 */
const port = Number(process.env['PORT'] ?? 0);
const ACCOUNT = 'bench-account';
const key = { ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }), kid: 'bench', alg: 'ES256', use: 'sig' };
const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [
    {
      client_id: process.env['BARE_OIDC_CLIENT_ID'] ?? 'bench',
      client_secret: process.env['BARE_OIDC_CLIENT_SECRET'] ?? 'bench-secret',
      redirect_uris: [process.env['BARE_OIDC_REDIRECT_URI'] ?? 'https://app.example.com/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'ES256',
    },
  ],
  jwks: { keys: [key] },
  scopes: ['openid', 'offline_access'],
  pkce: { required: () => true },
  rotateRefreshToken: () => true,
  cookies: { keys: ['bench-cookie-key'] },
  features: { devInteractions: { enabled: false } },
  interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
  findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
});
const callback = provider.callback();

createServer((request, response) => {
  if (!request.url?.startsWith('/interaction/')) return void callback(request, response);
  void (async () => {
    const interaction = await provider.interactionDetails(request, response);
    if (interaction.prompt.name === 'login') {
      await provider.interactionFinished(request, response, { login: { accountId: ACCOUNT } }, { mergeWithLastSubmission: false });
      return;
    }
    const accountId = interaction.session?.accountId ?? ACCOUNT;
    const clientId = String(interaction.params['client_id']);
    const grant = (interaction.grantId === undefined ? undefined : await provider.Grant.find(interaction.grantId)) ?? new provider.Grant({ accountId, clientId });
    const details = interaction.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
    if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
    const grantId = await grant.save();
    await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
  })().catch((error: unknown) => {
    response.statusCode = 500;
    response.end(String(error));
  });
}).listen(port, '127.0.0.1');
