/**
 * The sign-in page's one script (served from the service's own origin, allowed by `script-src 'self'`): the
 * *Sign in with a passkey* button. It asks the service for a challenge (`POST /auth/passkeys/authentication-options`),
 * lets the browser ask the person for a passkey, and posts the answer with the page's form (its CSRF token): the
 * server checks it as `POST /auth/sign-in/passkey` does. No token is kept anywhere: the answer goes in the form once.
 * Without WebAuthn's JSON helpers (an old browser) the button stays hidden and the password form is the way in.
 */
export const PASSKEY_SCRIPT = `'use strict';
(() => {
  const button = document.getElementById('passkey');
  const form = document.getElementById('passkey-form');
  const status = document.getElementById('passkey-status');
  const webauthn = window.PublicKeyCredential;
  if (!button || !form || !status || !webauthn || typeof webauthn.parseRequestOptionsFromJSON !== 'function') return;
  button.hidden = false;
  button.addEventListener('click', async () => {
    button.disabled = true;
    status.textContent = 'Waiting for your passkey…';
    try {
      const answer = await fetch(button.dataset.options, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', credentials: 'same-origin' });
      if (!answer.ok) throw new Error('options');
      const { data } = await answer.json();
      const credential = await navigator.credentials.get({ publicKey: webauthn.parseRequestOptionsFromJSON(data) });
      form.elements.namedItem('response').value = JSON.stringify(credential.toJSON());
      status.textContent = 'Signing in…';
      form.submit();
    } catch {
      status.textContent = 'No passkey was used. Try again, or sign in with your e-mail and password.';
      button.disabled = false;
    }
  });
})();
`;
