import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InteractionSteps, InteractionView } from '../../../application/oidc-provider/ports/interaction-steps.port.js';
import { type PageKit, escapeHtml } from '../shared/page-kit.js';

/** The engine's side of the pages, on Node's request and response. */
export type Steps = InteractionSteps<IncomingMessage, ServerResponse>;

/** A session the service's own sign-in just opened: whose, which (`GET /auth/sessions` lists it), proved how. */
export interface OpenedSession {
  readonly accountId: string;
  readonly sessionId: string;
  readonly amr: readonly string[];
}

/** Who asks, as the service sees it: the request's id, the client's address (its proxies trusted as configured), its browser. */
export interface PageRequest {
  readonly requestId: string;
  readonly clientIp: string;
  readonly userAgent: string | null;
}

/**
 * A password sign-in as `POST /auth/sign-in` makes it (its throttle, its no-enumeration rule, its notices): signed
 * in, refused, throttled (too many failures for the address, known or not), or waiting for the account's second
 * factor (the challenge's token, kept by the page's form).
 */
export type PasswordSignIn = (email: string, password: string, request: PageRequest) => Promise<OpenedSession | 'refused' | 'throttled' | { readonly mfaToken: string }>;

/**
 * The challenge's answer (a code of the authenticator app or a recovery code) as `POST /auth/sign-in/mfa` takes it:
 * signed in; `wrong` (counted against the challenge and the throttle); `ended` (expired, answered, or too many wrong
 * codes: sign in again).
 */
export type SecondFactorStep = (mfaToken: string, code: string, request: PageRequest) => Promise<OpenedSession | 'wrong' | 'ended'>;

/**
 * Social sign-in at the pages: the providers, each one's button; the flow starts at the service's own
 * `/auth/oauth/{provider}/authorize` and comes back (through `returnPath`) with a one-time code, redeemed with the
 * verifier only the pages know (derived from the interaction under the service's key).
 */
export interface SocialStep {
  readonly providers: readonly string[];
  /** Where a flow comes back to (`{issuer}{returnPath}?uid=…`): one of OAUTH_REDIRECT_URLS. */
  readonly returnUrl: string;
  redeem(code: string, codeVerifier: string, request: PageRequest): Promise<OpenedSession | { readonly mfaToken: string } | 'refused'>;
}

/**
 * A passkey's answer (`navigator.credentials.get`, as JSON) as `POST /auth/sign-in/passkey` takes it: signed in, or
 * refused (not a passkey of any account, a replay, a wrong origin).
 */
export type PasskeyStep = (response: unknown, request: PageRequest) => Promise<OpenedSession | 'refused'>;

/** What the pages are made of. */
export interface PagesSettings {
  readonly steps: Steps;
  readonly signIn: PasswordSignIn;
  readonly secondFactor: SecondFactorStep;
  /** Null when no provider can sign in at the pages (none configured, or the pages' return URL not allowed). */
  readonly social: SocialStep | null;
  /** Null when passkeys cannot sign in at the pages (no passkeys, or the pages' origin is not one of theirs). */
  readonly passkey: { readonly step: PasskeyStep; readonly script: string; readonly options: string } | null;
  readonly kit: PageKit;
  /** Where someone who cannot sign in asks for a reset link (the account console's page), or null for no link. */
  readonly forgotPassword: string | null;
  /** The key of the forms' CSRF tokens. */
  readonly csrfKey: Buffer;
  readonly prefix: string;
}

const FORM_LIMIT_BYTES = 16 * 1024;

const SCOPE_TEXT: Readonly<Record<string, string>> = {
  openid: 'Know who you are (your account id)',
  email: 'See your e-mail address',
  profile: 'See your name',
  offline_access: 'Stay signed in when you are away (a refresh token)',
};

/**
 * The OpenID provider's pages (issue 64): sign-in (*Email*, *Password*, *Sign in*, and *Sign in with a passkey* where
 * passkeys serve the pages' origin), the second factor (*Code*, *Verify*) and consent (*Allow*, *Deny*):
 * server-rendered, real labels, a CSRF token on every form (an HMAC of the interaction under the service's secret),
 * their own Content-Security-Policy with `frame-ancestors 'none'`; the passkey button's small script is the only one.
 * A wrong password and an unknown address read the same.
 */
export function interactionPages({ steps, signIn, secondFactor, social, passkey, forgotPassword, csrfKey, prefix, kit }: PagesSettings) {
  const { page } = kit;
  const csrfOf = (uid: string): string => createHmac('sha256', csrfKey).update(`oidc-interaction:${uid}`).digest('base64url');
  const csrfHolds = (uid: string, sent: string | undefined): boolean => {
    const expected = Buffer.from(csrfOf(uid));
    const given = Buffer.from(sent ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const send = (response: ServerResponse, status: number, html: string): void => {
    response.statusCode = status;
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.setHeader('cache-control', 'no-store');
    response.setHeader('content-security-policy', kit.csp);
    response.end(html);
  };
  const signInPage = (view: InteractionView, refused: boolean, alert = 'Wrong e-mail or password.'): string => {
    const action = `${prefix}/interaction/${escapeHtml(view.uid)}`;
    const passkeyForm =
      passkey === null
        ? ''
        : `<form id="passkey-form" method="post" action="${action}/passkey"><input type="hidden" name="csrf" value="${csrfOf(view.uid)}"><input type="hidden" name="response" value="">` +
          `<button type="button" id="passkey" class="secondary" data-options="${escapeHtml(passkey.options)}" hidden>Sign in with a passkey</button><p id="passkey-status" role="status"></p></form>`;
    const socialLinks =
      social === null || social.providers.length === 0
        ? ''
        : `<ul class="providers">${social.providers.map((provider) => `<li><a class="button secondary" href="${action}/social/${encodeURIComponent(provider)}">Sign in with ${escapeHtml(displayName(provider))}</a></li>`).join('')}</ul>`;
    return page(
      `Sign in to ${view.clientName}`,
      `<h1>Sign in</h1><p>to continue to <strong>${escapeHtml(view.clientName)}</strong></p>` +
        (refused ? `<p role="alert">${escapeHtml(alert)}</p>` : '') +
        `<form method="post" action="${action}/login">` +
        `<input type="hidden" name="csrf" value="${csrfOf(view.uid)}">` +
        '<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username webauthn" required>' +
        '<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>' +
        `<button type="submit">Sign in</button></form>${passkeyForm}${socialLinks}` +
        (forgotPassword === null ? '' : `<p><a href="${escapeHtml(forgotPassword)}">Forgot your password?</a></p>`),
      passkey?.script,
    );
  };
  const secondFactorPage = (view: InteractionView, mfaToken: string, alert: string | null): string =>
    page(
      'Two-step verification',
      '<h1>Two-step verification</h1><p>Enter the 6-digit code your authenticator app shows, or one of your recovery codes.</p>' +
        (alert === null ? '' : `<p role="alert">${escapeHtml(alert)}</p>`) +
        `<form method="post" action="${prefix}/interaction/${escapeHtml(view.uid)}/verify">` +
        `<input type="hidden" name="csrf" value="${csrfOf(view.uid)}"><input type="hidden" name="mfatoken" value="${escapeHtml(mfaToken)}">` +
        '<label for="code">Code</label><input id="code" name="code" type="text" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" maxlength="64" required>' +
        '<button type="submit">Verify</button></form>',
    );
  const consentPage = (view: InteractionView): string =>
    page(
      `Allow ${view.clientName}?`,
      `<h1>Allow ${escapeHtml(view.clientName)}?</h1><p>${escapeHtml(view.clientName)} asks to:</p><ul>` +
        view.scopes.map((scope) => `<li>${escapeHtml(SCOPE_TEXT[scope] ?? `Use ${view.resources.join(', ') || 'an API'} for you: ${scope}`)}</li>`).join('') +
        `</ul><form method="post" action="${prefix}/interaction/${escapeHtml(view.uid)}/consent">` +
        `<input type="hidden" name="csrf" value="${csrfOf(view.uid)}">` +
        '<button type="submit" name="decision" value="allow">Allow</button> <button type="submit" name="decision" value="deny" class="secondary">Deny</button></form>',
    );
  const refusedPage = (status: number, text: string): string => page('Sign-in error', `<h1>This sign-in cannot go on</h1><p>${escapeHtml(text)}</p><p>Go back to the app you came from and try again.</p>`);

  const displayName = (provider: string): string => (provider === 'github' ? 'GitHub' : `${provider.charAt(0).toUpperCase()}${provider.slice(1)}`);
  /** The PKCE verifier of a social flow started from interaction `uid`: only the pages can make it. */
  const socialVerifierOf = (uid: string): string => createHmac('sha256', csrfKey).update(`oidc-social:${uid}`).digest('base64url');
  const redirect = (response: ServerResponse, location: string): void => {
    response.statusCode = 303;
    response.setHeader('location', location);
    response.setHeader('cache-control', 'no-store');
    response.end();
  };
  const jsonOf = (text: string | null): unknown => {
    try {
      return JSON.parse(text ?? '') as unknown;
    } catch {
      return null;
    }
  };
  const formOf = async (request: IncomingMessage): Promise<URLSearchParams | null> => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size > FORM_LIMIT_BYTES) return null;
      chunks.push(chunk as Buffer);
    }
    return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  };

  return async (request: IncomingMessage, response: ServerResponse, context: { readonly requestId: string; readonly clientIp: string }): Promise<void> => {
    const asked: PageRequest = { ...context, userAgent: request.headers['user-agent']?.slice(0, 512) ?? null };
    const path = new URL(request.url ?? '/', 'http://pages').pathname.slice(`${prefix}/interaction/`.length).split('/');
    const [uid = '', action] = path;
    let view: InteractionView;
    try {
      view = await steps.details(request, response);
    } catch {
      return send(response, 400, refusedPage(400, 'This sign-in expired or was opened in another browser.'));
    }
    if (view.uid !== uid) return send(response, 400, refusedPage(400, 'This sign-in expired or was opened in another browser.'));
    // An app of the service's own (`--first-party`) asks no consent: what it asks is allowed at once.
    if (request.method === 'GET' && action === undefined && view.prompt === 'consent' && view.firstParty) return steps.allowed(request, response);
    if (request.method === 'GET' && action === undefined) return send(response, 200, view.prompt === 'consent' ? consentPage(view) : signInPage(view, false));
    if (request.method === 'GET' && social !== null && action === 'social' && view.prompt === 'login') {
      const provider = decodeURIComponent(path[2] ?? '');
      if (!social.providers.includes(provider)) return send(response, 404, refusedPage(404, 'No such way to sign in.'));
      const challenge = createHash('sha256').update(socialVerifierOf(uid)).digest('base64url');
      const back = new URL(social.returnUrl);
      back.searchParams.set('uid', uid);
      const query = new URLSearchParams({ redirect_to: back.href, code_challenge: challenge, code_challenge_method: 'S256' });
      return redirect(response, `/auth/oauth/${encodeURIComponent(provider)}/authorize?${query.toString()}`);
    }
    if (request.method === 'GET' && social !== null && action === 'social-done' && view.prompt === 'login') {
      const query = new URL(request.url ?? '/', 'http://pages').searchParams;
      const code = query.get('code');
      const outcome = code === null ? 'refused' : await social.redeem(code, socialVerifierOf(uid), asked);
      if (outcome === 'refused') return send(response, 401, signInPage(view, true, 'That sign-in did not complete. Try again, or sign in with your e-mail and password.'));
      if ('mfaToken' in outcome) return send(response, 200, secondFactorPage(view, outcome.mfaToken, null));
      return steps.signedIn(request, response, outcome);
    }
    if (request.method !== 'POST') return send(response, 405, refusedPage(405, 'Not a step of this sign-in.'));
    const form = await formOf(request);
    if (form === null || !csrfHolds(uid, form.get('csrf') ?? undefined)) return send(response, 403, refusedPage(403, 'This form expired: open the sign-in again.'));
    if (action === 'login') {
      const outcome = await signIn(form.get('email') ?? '', form.get('password') ?? '', asked);
      if (outcome === 'refused') return send(response, 401, signInPage(view, true));
      if (outcome === 'throttled') return send(response, 429, signInPage(view, true, 'Too many failed sign-ins for this address. Wait a few minutes, then try again.'));
      if ('mfaToken' in outcome) return send(response, 200, secondFactorPage(view, outcome.mfaToken, null));
      return steps.signedIn(request, response, outcome);
    }
    if (action === 'verify') {
      const mfaToken = form.get('mfatoken') ?? '';
      const outcome = await secondFactor(mfaToken, form.get('code') ?? '', asked);
      if (outcome === 'wrong') return send(response, 401, secondFactorPage(view, mfaToken, 'That code is not right, or was used already.'));
      if (outcome === 'ended') return send(response, 401, signInPage(view, true, 'This verification ended: sign in again.'));
      return steps.signedIn(request, response, outcome);
    }
    if (action === 'passkey' && passkey !== null) {
      const outcome = await passkey.step(jsonOf(form.get('response')), asked);
      if (outcome === 'refused') return send(response, 401, signInPage(view, true, 'That passkey was not accepted. Try again, or sign in with your e-mail and password.'));
      return steps.signedIn(request, response, outcome);
    }
    if (action === 'consent' && view.prompt === 'consent') return form.get('decision') === 'allow' ? steps.allowed(request, response) : steps.denied(request, response);
    return send(response, 400, refusedPage(400, 'Not a step of this sign-in.'));
  };
}
