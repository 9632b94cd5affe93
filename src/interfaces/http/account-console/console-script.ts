/**
 * The account console's one script (served from the service's own origin, allowed by `script-src 'self'`; no
 * library, no build step). It signs in as the service's built-in app at the provider's pages (code + PKCE, the API as
 * resource), keeps the access token in a variable (never in storage, a cookie or a URL: the PKCE verifier and
 * `state` wait in sessionStorage across the one redirect, and are spent on return), and runs each form as one call
 * of the documented API. A STEP_UP_REQUIRED answer asks for a code in place and then makes the call again.
 */
export const CONSOLE_SCRIPT = String.raw`'use strict';
(() => {
  const root = document.getElementById('console');
  const banner = document.getElementById('console-status');
  if (!root || !banner) return;
  const $ = (id) => document.getElementById(id);
  const FLOW = 'account-console-flow';
  const LINK = 'account-console-link';
  const REAUTH = 'account-console-reauth';
  const SAID = 'account-console-said';
  const HOME = location.origin + root.dataset.home;
  const API = location.origin + root.dataset.api;
  let token = null;
  let proven = false;
  let stepUps = 0;
  let loaded = {};

  class Refused extends Error {
    constructor(answer) {
      super(answer.message || 'That did not work.');
      this.code = answer.code || '';
      this.fields = (answer.errors || []).map((issue) => issue.message);
    }
  }
  class Leaving extends Error {}

  const say = (element, text, alert) => {
    if (!element) return;
    element.setAttribute('role', alert ? 'alert' : 'status');
    element.textContent = text;
  };
  const bytes64 = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const random = () => bytes64(crypto.getRandomValues(new Uint8Array(32)));
  const when = (iso) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'never');
  const element = (tag, text, className) => {
    const made = document.createElement(tag);
    if (text !== undefined) made.textContent = text;
    if (className) made.className = className;
    return made;
  };
  const button = (text, onClick, secondary) => {
    const made = element('button', text, secondary ? 'secondary' : '');
    made.type = 'button';
    made.addEventListener('click', onClick);
    return made;
  };

  // Sign-in: the provider's pages, as the service's built-in app; back here with a code.
  const signIn = async (prompt) => {
    if (!window.crypto || !crypto.subtle) {
      say(banner, 'The account console needs a secure connection (HTTPS).', true);
      throw new Leaving();
    }
    const verifier = random();
    const state = random();
    const challenge = bytes64(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
    sessionStorage.setItem(FLOW, JSON.stringify({ verifier, state, path: location.pathname, prompt: prompt || null }));
    const query = new URLSearchParams({ client_id: root.dataset.client, redirect_uri: HOME, response_type: 'code', scope: 'openid ' + root.dataset.scope, resource: API, code_challenge: challenge, code_challenge_method: 'S256', state });
    if (prompt) query.set('prompt', prompt);
    location.assign('/oidc/auth?' + query.toString());
    throw new Leaving();
  };
  const signInButton = (text) => {
    say(banner, text, true);
    banner.append(' ', button('Sign in', () => signIn('login').catch(() => undefined)));
  };
  const arrive = async () => {
    const query = new URLSearchParams(location.search);
    const flow = JSON.parse(sessionStorage.getItem(FLOW) || 'null');
    const link = JSON.parse(sessionStorage.getItem(LINK) || 'null');
    const reauth = JSON.parse(sessionStorage.getItem(REAUTH) || 'null');
    if (reauth && !reauth.oauthcode && !flow && (query.has('code') || query.has('error'))) {
      // Back from the provider's new sign-in: its code is the proof the form waits for, once signed in here again.
      if (query.has('code')) sessionStorage.setItem(REAUTH, JSON.stringify({ ...reauth, oauthcode: query.get('code') }));
      else {
        sessionStorage.removeItem(REAUTH);
        sessionStorage.setItem(SAID, 'The sign-in at the provider did not complete: nothing was done.');
      }
      history.replaceState(null, '', reauth.path);
      return signIn();
    }
    if (link && !flow && (query.has('code') || query.has('error'))) {
      // Back from a provider with the connection's one-time code: redeemed with the verifier only this page holds.
      sessionStorage.removeItem(LINK);
      history.replaceState(null, '', root.dataset.home + 'connected');
      let said = 'The connection was cancelled.';
      if (query.has('code')) {
        const answer = await fetch('/auth/oauth/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: query.get('code'), code_verifier: link.verifier }), credentials: 'omit' });
        const json = await answer.json().catch(() => ({}));
        // The exchange signs in as a sign-in does: that session is not the console's, so it ends at once.
        if (json.data && json.data.accesstoken) await fetch('/auth/sign-out', { method: 'POST', headers: { authorization: 'Bearer ' + json.data.accesstoken }, credentials: 'omit' });
        said = answer.ok ? 'Connected.' : [json.message || 'The connection did not complete.', ...(json.errors || []).map((issue) => issue.message)].join(' ');
      }
      sessionStorage.setItem(SAID, said);
      return signIn();
    }
    if (!flow || !(query.has('code') || query.has('error'))) return signIn();
    sessionStorage.removeItem(FLOW);
    history.replaceState(null, '', flow.path);
    if (query.get('state') !== flow.state) return signInButton('This sign-in was not started from this page.');
    if (query.has('error')) return signInButton(query.get('error') === 'access_denied' ? 'The sign-in was cancelled.' : 'The sign-in did not complete.');
    const body = new URLSearchParams({ grant_type: 'authorization_code', code: query.get('code'), redirect_uri: HOME, client_id: root.dataset.client, code_verifier: flow.verifier, resource: API });
    const answer = await fetch('/oidc/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, credentials: 'omit' });
    const tokens = await answer.json().catch(() => ({}));
    // The sign-in behind the pages' session is over (signed out elsewhere): sign in again.
    if (!answer.ok) return flow.prompt ? signInButton('The sign-in did not complete.') : signIn('login');
    token = tokens.access_token;
    return true;
  };

  // The API: the token as bearer; a step-up asked in place; a token that stopped working signs in again.
  // A code asked in place (*Confirm it's you*): \`check\` tries it (a step-up), or it is the proof itself.
  const askCode = (check) =>
    new Promise((resolve, reject) => {
      const form = $('step-up-form');
      const status = $('step-up-status');
      const done = (code) => {
        form.hidden = true;
        form.onsubmit = null;
        $('step-up-cancel').onclick = null;
        if (code !== null) resolve(code);
        else reject(new Refused({ message: 'Cancelled: this needs a code from your authenticator app.' }));
      };
      form.hidden = false;
      form.reset();
      say(status, '', false);
      $('step-up-title').focus();
      $('step-up-cancel').onclick = () => done(null);
      form.onsubmit = async (event) => {
        event.preventDefault();
        const code = $('step-up-code').value.trim();
        try {
          await check(code);
          done(code);
        } catch (error) {
          if (error instanceof Leaving) return;
          say(status, error.message, true);
        }
      };
    });
  const stepUp = () =>
    askCode(async (code) => {
      const data = await call('POST', '/auth/mfa/verify', /^\d{6}$/.test(code) ? { code } : { recoverycode: code }, true);
      token = data.accesstoken;
      stepUps += 1;
    });
  const call = async (method, path, body, noStepUp) => {
    const init = { method, headers: { authorization: 'Bearer ' + token }, credentials: 'omit' };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let answer;
    try {
      answer = await fetch(path, init);
    } catch {
      throw new Refused({ message: 'The service could not be reached. Try again in a moment.' });
    }
    const json = answer.status === 204 ? {} : await answer.json().catch(() => ({}));
    // A 401 of a wrong code or password is an answer to show; a token that worked and stopped (signed out elsewhere):
    // sign in again; one refused from the start: said.
    if (answer.status === 401 && proven && json.code !== 'INVALID_MFA_CODE' && json.code !== 'INVALID_CREDENTIALS') return signIn();
    if (answer.status === 403 && json.code === 'STEP_UP_REQUIRED' && !noStepUp) {
      await stepUp();
      return call(method, path, body, true);
    }
    if (!answer.ok) throw new Refused(json);
    proven = true;
    return json.data || {};
  };

  // The holder's proof for an action that adds a way in or deletes the account: the current password; an account without
  // one proves itself now with a passkey, a code of its authenticator app, or a new sign-in at its provider (a
  // round trip: the form is sent again on return, with the provider's one-time code).
  let holder = null;
  let pendingProof = null;
  const holderOf = async () => {
    if (holder) return holder;
    const { credentials } = await call('GET', '/auth/me/credentials');
    const kinds = credentials.map((credential) => credential.kind);
    const identity = credentials.find((credential) => credential.kind === 'identity');
    holder = { password: kinds.includes('password'), passkey: kinds.includes('passkey'), totp: kinds.includes('totp'), provider: identity ? identity.name : null };
    for (const input of root.querySelectorAll('input[name="currentpassword"]')) {
      if (holder.password || input.form.id === 'totp-off-form') continue;
      input.required = false;
      input.hidden = true;
      const label = root.querySelector('label[for="' + input.id + '"]');
      if (label) label.hidden = true;
    }
    return holder;
  };
  const proofFor = async (values, action, form) => {
    const held = await holderOf();
    if (held.password) return { currentpassword: values.currentpassword };
    if (pendingProof && pendingProof.form === form.id) {
      const proof = { oauthcode: pendingProof.oauthcode, code_verifier: pendingProof.verifier };
      pendingProof = null;
      return proof;
    }
    const webauthn = window.PublicKeyCredential;
    if (held.passkey && webauthn && typeof webauthn.parseRequestOptionsFromJSON === 'function') {
      const options = await call('POST', '/auth/passkeys/authentication-options', {});
      try {
        const credential = await navigator.credentials.get({ publicKey: webauthn.parseRequestOptionsFromJSON(options) });
        return { passkey: credential.toJSON() };
      } catch {
        throw new Refused({ message: 'No passkey was used.' });
      }
    }
    if (held.totp) return { code: await askCode(async () => undefined) };
    if (held.provider) {
      const verifier = random();
      const challenge = bytes64(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
      const { url } = await call('POST', '/auth/oauth/' + encodeURIComponent(held.provider) + '/reauthenticate', { redirect_to: root.dataset.linkReturn, code_challenge: challenge, code_challenge_method: 'S256', action });
      const kept = Object.fromEntries(Object.entries(values).filter(([name]) => name !== 'currentpassword'));
      sessionStorage.setItem(REAUTH, JSON.stringify({ verifier, form: form.id, path: location.pathname, values: kept }));
      location.assign(url);
      throw new Leaving();
    }
    return {};
  };
  /** Back from the provider's new sign-in: the form it was for, sent again with the proof (one use, within 60 s). */
  const resume = () => {
    if (!pendingProof) return;
    const form = $(pendingProof.form);
    if (!form) return;
    for (const [name, value] of Object.entries(pendingProof.values)) {
      const input = form.elements.namedItem(name);
      if (input && 'value' in input) input.value = value;
    }
    const submitter = pendingProof.values.provider ? form.querySelector('button[value="' + CSS.escape(pendingProof.values.provider) + '"]') : null;
    form.requestSubmit(submitter || undefined);
  };

  // A form: its values to one call, its outcome said beside it.
  const onForm = (id, act) => {
    const form = $(id);
    if (!form) return;
    const status = $(id.replace(/-form$/, '') + '-status') || $(id.replace(/-[a-z]+-form$/, '') + '-status') || form.nextElementSibling;
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const submitter = event.submitter;
      const values = Object.fromEntries(new FormData(form).entries());
      if (submitter && submitter.name) values[submitter.name] = submitter.value;
      for (const control of form.querySelectorAll('button')) control.disabled = true;
      say(status, 'Working…', false);
      try {
        say(status, (await act(values, form)) || 'Saved.', false);
      } catch (error) {
        if (error instanceof Leaving) return;
        say(status, [error.message, ...(error.fields || [])].join(' '), true);
      } finally {
        for (const control of form.querySelectorAll('button')) control.disabled = false;
      }
    });
  };
  const onButton = (id, statusId, act) => {
    const control = $(id);
    if (!control) return;
    control.addEventListener('click', async () => {
      control.disabled = true;
      try {
        say($(statusId), (await act()) || 'Done.', false);
      } catch (error) {
        if (error instanceof Leaving) return;
        say($(statusId), [error.message, ...(error.fields || [])].join(' '), true);
      } finally {
        control.disabled = false;
      }
    });
  };

  const deviceOf = (agent) => {
    if (!agent) return 'Unknown device';
    const browser = /Edg\//.test(agent) ? 'Edge' : /Firefox\//.test(agent) ? 'Firefox' : /Chrome\//.test(agent) ? 'Chrome' : /Safari\//.test(agent) ? 'Safari' : agent.split(/[ /]/)[0];
    const system = /iPhone|iPad/.test(agent) ? 'iOS' : /Android/.test(agent) ? 'Android' : /Windows/.test(agent) ? 'Windows' : /Mac OS X/.test(agent) ? 'macOS' : /Linux/.test(agent) ? 'Linux' : '';
    return system ? browser + ' on ' + system : browser;
  };
  const ACTIVITY = {
    user_registered: 'Account created', user_signed_in: 'Signed in', sign_in_failed: 'Failed sign-in', signed_out: 'Signed out', session_revoked: 'Session ended',
    password_changed: 'Password changed', password_reset: 'Password reset', profile_changed: 'Profile changed', email_verified: 'Address confirmed',
    mfa_removed: 'Second factor removed', mfa_enrolled: 'Second factor set up', account_disabled: 'Account disabled', account_enabled: 'Account enabled', sessions_ended: 'Every session ended',
  };
  const activityText = (entry) => {
    const named = ACTIVITY[entry.type] || entry.type.replace(/_/g, ' ').replace(/^./, (first) => first.toUpperCase());
    return named + (entry.reason ? ' (' + entry.reason.replace(/_/g, ' ') + ')' : '') + (entry.by ? ', by an administrator' : '');
  };

  // What each page shows, read from the API when the page opens.
  const loaders = {
    profile: async () => {
      const { user } = await call('GET', '/auth/me');
      $('profile-email').textContent = user.email;
      $('profile-name').value = user.name;
      $('profile-lastname').value = user.lastname;
    },
    sessions: async () => {
      const { sessions } = await call('GET', '/auth/sessions?limit=100');
      const list = $('sessions-list');
      list.replaceChildren(
        ...sessions.map((session) => {
          const item = element('li');
          const title = element('strong', deviceOf(session.useragent));
          title.id = 'session-' + session.id;
          item.append(title, element('span', ' · ' + (session.clientip || 'unknown address') + ' · signed in ' + when(session.createdat) + ' · last used ' + when(session.lastusedat)));
          if (session.current) item.append(' ', element('span', 'This device', 'badge'));
          else {
            const out = button('Sign out', async () => {
              out.disabled = true;
              try {
                await call('DELETE', '/auth/sessions/' + encodeURIComponent(session.id));
                say($('sessions-status'), 'Signed out: ' + deviceOf(session.useragent) + '.', false);
                await loaders.sessions();
              } catch (error) {
                if (!(error instanceof Leaving)) say($('sessions-status'), error.message, true);
                out.disabled = false;
              }
            }, true);
            out.setAttribute('aria-describedby', title.id);
            item.append(' ', out);
          }
          return item;
        }),
      );
    },
    'two-factor': async () => {
      if (!$('totp-state')) return;
      const { mfa } = await call('GET', '/auth/me');
      $('totp-state').textContent = mfa.enrolled ? 'An authenticator app is set up: a code is asked after your password. Recovery codes left: ' + mfa.recoverycodesleft + '.' : 'Not set up: only your password is asked.';
      $('totp-setup-form').hidden = mfa.enrolled;
      $('totp-off-form').hidden = !mfa.enrolled;
      $('totp-enrol').hidden = true;
    },
    passkeys: async () => {
      if (!$('passkeys-list')) return;
      const { passkeys } = await call('GET', '/auth/passkeys');
      const list = $('passkeys-list');
      if (passkeys.length === 0) return list.replaceChildren(element('li', 'No passkey yet.'));
      list.replaceChildren(
        ...passkeys.map((passkey) => {
          const item = element('li');
          const title = element('strong', passkey.name || 'Passkey');
          title.id = 'passkey-' + passkey.id;
          item.append(title, element('span', ' · added ' + when(passkey.createdat) + ' · last used ' + when(passkey.lastusedat)), ' ');
          const rename = button('Rename', () => {
            const form = element('form', undefined, 'inline');
            const label = element('label', 'New name for ' + (passkey.name || 'this passkey'));
            label.htmlFor = 'rename-' + passkey.id;
            const input = element('input');
            Object.assign(input, { id: 'rename-' + passkey.id, name: 'name', value: passkey.name || '', required: true, maxLength: 64 });
            const save = element('button', 'Save');
            save.type = 'submit';
            form.append(label, input, save);
            form.addEventListener('submit', async (event) => {
              event.preventDefault();
              try {
                await call('PATCH', '/auth/passkeys/' + encodeURIComponent(passkey.id), { name: input.value });
                say($('passkeys-status'), 'Renamed.', false);
                await loaders.passkeys();
              } catch (error) {
                if (!(error instanceof Leaving)) say($('passkeys-status'), [error.message, ...error.fields].join(' '), true);
              }
            });
            item.append(form);
            input.focus();
          }, true);
          const remove = button('Remove', async () => {
            try {
              await call('DELETE', '/auth/passkeys/' + encodeURIComponent(passkey.id));
              say($('passkeys-status'), 'Removed.', false);
              await loaders.passkeys();
            } catch (error) {
              if (!(error instanceof Leaving)) say($('passkeys-status'), error.message, true);
            }
          }, true);
          rename.setAttribute('aria-describedby', title.id);
          remove.setAttribute('aria-describedby', title.id);
          item.append(rename, ' ', remove);
          return item;
        }),
      );
    },
    connected: async () => {
      if (!$('connected-list')) return;
      const { identities } = await call('GET', '/auth/identities');
      const list = $('connected-list');
      if (identities.length === 0) return list.replaceChildren(element('li', 'None connected.'));
      list.replaceChildren(
        ...identities.map((identity) => {
          const item = element('li');
          const title = element('strong', identity.provider + (identity.email ? ' (' + identity.email + ')' : ''));
          title.id = 'identity-' + identity.id;
          const out = button('Disconnect', async () => {
            try {
              await call('DELETE', '/auth/identities/' + encodeURIComponent(identity.id));
              say($('connected-status'), 'Disconnected.', false);
              await loaders.connected();
            } catch (error) {
              if (!(error instanceof Leaving)) say($('connected-status'), error.message, true);
            }
          }, true);
          out.setAttribute('aria-describedby', title.id);
          item.append(title, ' ', out);
          return item;
        }),
      );
    },
    activity: async () => {
      const { events } = await call('GET', '/auth/me/activity?limit=50');
      $('activity-list').replaceChildren(
        ...events.map((entry) => {
          const item = element('li');
          item.append(element('strong', activityText(entry)), element('span', ' · ' + when(entry.occurredat) + (entry.clientip ? ' · ' + entry.clientip : '') + (entry.useragent ? ' · ' + deviceOf(entry.useragent) : '')));
          return item;
        }),
      );
    },
  };

  // The forms and buttons, each one call.
  onForm('profile-form', async (values) => {
    await call('PATCH', '/auth/me', { name: values.name, lastname: values.lastname });
    return 'Saved.';
  });
  onButton('sessions-others', 'sessions-status', async () => {
    await call('POST', '/auth/sign-out', { scope: 'others' });
    await loaders.sessions();
    return 'Every other device is signed out.';
  });
  onForm('password-form', async (values, form) => {
    await call('POST', '/auth/password', { currentpassword: values.currentpassword, newpassword: values.newpassword });
    form.reset();
    return 'Your password is changed; every other device is signed out.';
  });
  onForm('totp-setup-form', async (values, form) => {
    const enrolment = await call('POST', '/auth/mfa/totp', await proofFor(values, 'enrol-totp', form));
    form.reset();
    const svg = new DOMParser().parseFromString(enrolment.qrcode, 'image/svg+xml').documentElement;
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', 'QR code of the secret');
    svg.setAttribute('width', '200');
    svg.setAttribute('height', '200');
    $('totp-qr').replaceChildren(document.importNode(svg, true));
    $('totp-secret').textContent = enrolment.secret;
    form.hidden = true;
    $('totp-enrol').hidden = false;
    $('totp-code').focus();
    return 'Scan the code, then enter the code the app shows.';
  });
  onForm('totp-confirm-form', async (values) => {
    const { recoverycodes } = await call('POST', '/auth/mfa/totp/confirm', { code: values.code.trim() });
    $('totp-enrol').hidden = true;
    $('totp-recovery').replaceChildren(...recoverycodes.map((code) => element('li', code)));
    $('totp-codes').hidden = false;
    $('totp-state').textContent = 'An authenticator app is set up: a code is asked after your password.';
    return 'Two-factor is on. Keep your recovery codes now.';
  });
  onForm('totp-off-form', async (values, form) => {
    const before = stepUps;
    try {
      await call('DELETE', '/auth/mfa/totp', { currentpassword: values.currentpassword, code: values.code.trim() });
    } catch (error) {
      // A code proves the factor once: the one just used to confirm it's you cannot turn it off too.
      if (error.code === 'INVALID_MFA_CODE' && stepUps !== before) throw new Refused({ message: 'That code was just used to confirm it is you. Enter the next code your app shows, then press Turn off.' });
      throw error;
    }
    form.reset();
    $('totp-codes').hidden = true;
    await loaders['two-factor']();
    return 'Two-factor is off.';
  });
  onForm('passkeys-add-form', async (values, form) => {
    const webauthn = window.PublicKeyCredential;
    if (!webauthn || typeof webauthn.parseCreationOptionsFromJSON !== 'function') throw new Refused({ message: 'This browser cannot make passkeys.' });
    const options = await call('POST', '/auth/passkeys/registration-options', await proofFor(values, 'add-passkey', form));
    let credential;
    try {
      credential = await navigator.credentials.create({ publicKey: webauthn.parseCreationOptionsFromJSON(options) });
    } catch {
      throw new Refused({ message: 'No passkey was made.' });
    }
    await call('POST', '/auth/passkeys', { response: credential.toJSON(), ...(values.name ? { name: values.name } : {}) });
    form.reset();
    await loaders.passkeys();
    return 'Passkey added.';
  });
  onForm('connected-form', async (values, form) => {
    const verifier = random();
    const challenge = bytes64(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
    const proof = await proofFor(values, 'link-identity', form);
    const { url } = await call('POST', '/auth/oauth/' + encodeURIComponent(values.provider) + '/link', { redirect_to: root.dataset.linkReturn, code_challenge: challenge, code_challenge_method: 'S256', ...proof });
    sessionStorage.setItem(LINK, JSON.stringify({ verifier }));
    location.assign(url);
    throw new Leaving();
  });
  onButton('export-download', 'export-status', async () => {
    const data = await call('GET', '/auth/me/export');
    const link = element('a');
    link.href = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
    link.download = 'my-account.json';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    return 'Your data is downloaded (my-account.json).';
  });
  onForm('delete-form', async (values, form) => {
    if (values.confirm !== 'DELETE') throw new Refused({ message: 'Type DELETE to confirm.' });
    await call('DELETE', '/auth/me', await proofFor(values, 'delete-account', form));
    token = null;
    root.hidden = true;
    say(banner, 'Your account is deleted.', false);
    return 'Deleted.';
  });
  onButton('console-sign-out', 'console-status', async () => {
    await call('POST', '/auth/sign-out', { scope: 'local' });
    token = null;
    location.assign('/oidc/session/end?' + new URLSearchParams({ client_id: root.dataset.client, post_logout_redirect_uri: HOME }).toString());
    throw new Leaving();
  });

  // The admin console (/console/): accounts found by the start of their address, and one account's page.
  const accountId = () => decodeURIComponent(location.pathname.slice((root.dataset.home + 'accounts/').length));
  let shown = null;
  loaders.search = async () => {
    const query = $('search-query').value.trim();
    const { users } = await call('GET', '/admin/users?' + new URLSearchParams({ query, limit: '50' }).toString());
    $('search-list').replaceChildren(
      ...users.map((user) => {
        const item = element('li');
        const link = element('a', user.email);
        link.href = root.dataset.home + 'accounts/' + encodeURIComponent(user.id);
        item.append(link, element('span', ' · ' + user.name + ' ' + user.lastname + (user.disabled ? ' · disabled' : '') + (user.emailverified ? '' : ' · address not confirmed')));
        return item;
      }),
    );
    return users.length === 0 ? 'No account starts with that address.' : users.length + (users.length === 1 ? ' account.' : ' accounts.');
  };
  loaders.account = async () => {
    const { user, sessions, secondfactor } = await call('GET', '/admin/users/' + encodeURIComponent(accountId()));
    shown = user;
    $('account-title').textContent = user.email;
    $('account-facts').replaceChildren(
      element('li', 'Name: ' + user.name + ' ' + user.lastname),
      element('li', 'Address ' + (user.emailverified ? 'confirmed' : 'not confirmed')),
      element('li', user.disabled ? 'Disabled: it cannot sign in' : 'Enabled'),
      element('li', secondfactor.enrolled ? 'Second factor: an authenticator app (' + secondfactor.recoverycodesleft + ' recovery codes left)' : 'Second factor: none'),
    );
    $('account-disable').hidden = user.disabled;
    $('account-enable').hidden = !user.disabled;
    $('account-mfa').hidden = !secondfactor.enrolled;
    $('account-sessions').replaceChildren(...(sessions.length === 0 ? [element('li', 'No live session.')] : sessions.map((session) => element('li', deviceOf(session.useragent) + ' · ' + (session.clientip || 'unknown address') + ' · last used ' + when(session.lastusedat)))));
    const { events } = await call('GET', '/admin/users/' + encodeURIComponent(accountId()) + '/activity?limit=50');
    $('account-activity').replaceChildren(
      ...events.map((entry) => {
        const item = element('li');
        const actor = entry.actoremail || (entry.actor === 'cli' ? 'the command line' : entry.actor ? entry.actor.replace(/^key:/, 'API key ') : '');
        item.append(element('strong', activityText({ ...entry, by: undefined }) + (actor ? ', by ' + actor : '')), element('span', ' · ' + when(entry.occurredat)));
        return item;
      }),
    );
  };
  onForm('search-form', () => loaders.search());
  const adminAction = (id, method, path, said) =>
    onButton(id, 'account-status', async () => {
      await call(method, '/admin/users/' + encodeURIComponent(accountId()) + path);
      await loaders.account();
      return said;
    });
  adminAction('account-disable', 'POST', '/disable', 'Disabled: every session ended, and it cannot sign in.');
  adminAction('account-enable', 'POST', '/enable', 'Enabled: it can sign in again.');
  adminAction('account-sign-out', 'POST', '/sign-out', 'Every session of the account is ended.');
  adminAction('account-mfa', 'DELETE', '/mfa', 'The second factor is removed: the password alone signs in.');
  onForm('account-delete-form', async (values, form) => {
    if (!shown || values.confirm.trim() !== shown.email) throw new Refused({ message: "Type the account's address exactly to confirm." });
    await call('DELETE', '/admin/users/' + encodeURIComponent(shown.id));
    form.reset();
    for (const control of $('section-account').querySelectorAll('button')) control.hidden = true;
    return 'The account ' + shown.email + ' is deleted.';
  });

  // Pages: switched in place, each read when it opens.
  const show = async (slug) => {
    const known = $('section-' + slug) ? slug : root.dataset.first;
    for (const section of root.querySelectorAll('section[data-slug]')) section.hidden = section.dataset.slug !== known;
    for (const link of document.querySelectorAll('nav a')) {
      if (slugOf(link.pathname) === known && link.pathname.startsWith(root.dataset.home)) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    document.title = document.title.replace(/^[^·]*·/, ($('section-' + known).querySelector('h1') || { textContent: '' }).textContent + ' ·');
    if (!loaders[known] || loaded[known]) return;
    try {
      await loaders[known]();
      loaded[known] = true;
    } catch (error) {
      if (error instanceof Leaving) return;
      // The admin API's refusals of whoever is not an operator signed in with a second factor: said, nothing shown.
      // As docs/admin-console.md has it: who the console is for; how to sign in with a second factor, or set one up.
      if (error.code === 'SECOND_FACTOR_REQUIRED') {
        root.hidden = true;
        say(banner, error.message + ": sign in again with your authenticator app's code or a passkey.", true);
        const setUp = element('a', 'set one up in your account');
        setUp.href = '/account/two-factor';
        banner.append(' None yet? First ', setUp, '. ', button('Sign in', () => signIn('login').catch(() => undefined)));
        return;
      }
      if (error.code === 'NOT_AN_OPERATOR') {
        root.hidden = true;
        return say(banner, error.message + ': the admin console is for accounts that hold the operator role.', true);
      }
      say(banner, error.message, true);
    }
  };
  const slugOf = (path) => {
    const rest = path.slice(root.dataset.home.length);
    return rest.startsWith('accounts/') ? 'account' : rest || root.dataset.first;
  };
  // A link to another page of this console opens it in place (the token stays in memory).
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!link || !token || link.origin !== location.origin || !link.pathname.startsWith(root.dataset.home) || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    history.pushState(null, '', link.pathname);
    loaded = {};
    void show(slugOf(link.pathname));
  });
  // Back and Forward too: the page of that address read again (an account's page is that account's, not the last shown).
  window.addEventListener('popstate', () => {
    if (!token) return;
    loaded = {};
    void show(slugOf(location.pathname));
  });

  arrive()
    .then(async (ready) => {
      if (ready !== true) return;
      say(banner, '', false);
      root.hidden = false;
      await holderOf().catch(() => undefined);
      await show(slugOf(location.pathname));
      const said = sessionStorage.getItem(SAID);
      sessionStorage.removeItem(SAID);
      if (said) say($('section-' + slugOf(location.pathname)).querySelector('.form-status') || banner, said, said !== 'Connected.');
      const reauth = JSON.parse(sessionStorage.getItem(REAUTH) || 'null');
      sessionStorage.removeItem(REAUTH);
      if (reauth && reauth.oauthcode) {
        pendingProof = reauth;
        resume();
      }
    })
    .catch((error) => {
      if (!(error instanceof Leaving)) say(banner, 'The console could not start: ' + error.message, true);
    });
})();
`;
