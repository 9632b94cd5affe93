/** The token in a mail's link (`…#token=<token>`), read as the integrator's page would read it. */
export function tokenInText(text: string | undefined): string {
  const match = /#token=([^\s"<]+)/.exec(text ?? '');
  if (!match?.[1]) throw new Error(`no link in ${JSON.stringify(text)}`);
  return decodeURIComponent(match[1]);
}
