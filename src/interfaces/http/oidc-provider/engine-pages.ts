import { type PageKit, escapeHtml } from '../shared/page-kit.js';

/**
 * The pages the engine shows itself: the sign-out confirmation (around its form: its `op.logoutForm` and xsrf token;
 * *Sign out* and *Stay signed in*), and the page after it, with the same look and policy as the others.
 */
export const enginePagesOf = ({ csp, page }: PageKit) => ({
  csp,
  signOut: (form: string): string =>
    page(
      'Sign out?',
      `<h1>Sign out?</h1><p>You will be signed out of this service's sign-in pages; apps you use may keep their own session.</p>${form}` +
        '<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button> <button type="submit" form="op.logoutForm" class="secondary">Stay signed in</button>',
    ),
  signedOut: (): string => page('Signed out', '<h1>Signed out</h1><p>You are signed out of the sign-in pages.</p>'),
  deviceCode: (form: { readonly action: string; readonly xsrf: string }, retry: boolean): string =>
    page(
      'Sign in on a device',
      '<h1>Sign in on a device</h1><p>Enter the code your device (a TV, a console, a command line) shows.</p>' +
        (retry ? '<p role="alert">That code is not right, or it expired. Check the device and try again.</p>' : '') +
        `<form method="post" action="${escapeHtml(form.action)}"><input type="hidden" name="xsrf" value="${escapeHtml(form.xsrf)}">` +
        '<label for="user_code">Code</label><input id="user_code" name="user_code" type="text" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="32" required>' +
        '<button type="submit">Continue</button></form>',
    ),
  deviceConfirm: (form: string, clientName: string, userCode: string): string =>
    page(
      `Sign in to ${clientName} on a device?`,
      `<h1>Sign in to ${escapeHtml(clientName)} on a device?</h1><p>Go on only if your device shows this code: <strong>${escapeHtml(userCode)}</strong></p>${form}` +
        '<button type="submit" form="op.deviceConfirmForm">Continue</button> <button type="submit" form="op.deviceConfirmForm" name="abort" value="yes" class="secondary">Cancel</button>',
    ),
  deviceDone: (clientName: string): string =>
    page('Device signed in', `<h1>Device signed in</h1><p>${escapeHtml(clientName)} is signed in on your device. You can close this page.</p>`),
  /**
   * The page a browser sees when the request cannot go back to an app (an unknown client, a redirect URI not
   * registered): what went wrong, in words; never a redirect to an address nobody registered.
   */
  error: (error: string, description: string | undefined): string =>
    page(
      'Sign-in error',
      `<h1>This sign-in cannot go on</h1><p>${escapeHtml(description ?? 'The request was refused.')}</p><p>Error code: <code>${escapeHtml(error)}</code></p><p>Go back to the app you came from and try again.</p>`,
    ),
});
