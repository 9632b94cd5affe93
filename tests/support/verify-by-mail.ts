import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { simpleParser } from 'mailparser';
import { postJson } from './http-client.js';
import { tokenInText } from './mail.js';

/** Where a service on the file sender (the default) writes its mails: one .eml each under DATA_DIR/mail. */
const mailDir = (dataDir: string) => join(dataDir, 'mail');

/** The text of the newest mail with this subject to this address, or null (none written yet). */
async function newestMail(dataDir: string, to: string, subject: string): Promise<string | null> {
  let files: string[];
  try {
    files = readdirSync(mailDir(dataDir)).filter((name) => name.endsWith('.eml')).sort();
  } catch {
    return null;
  }
  for (const name of files.reverse()) {
    const parsed = await simpleParser(readFileSync(join(mailDir(dataDir), name)));
    const recipients = [parsed.to ?? []].flat().flatMap((address) => address.value.map((entry) => entry.address));
    if (parsed.subject === subject && recipients.includes(to)) return parsed.text ?? null;
  }
  return null;
}

/**
 * Proves `email` over HTTP as its owner does: waits for the service's verification mail to it (`deliver` runs the
 * service's mail dispatch where the test holds it, else its own job writes it), then posts the link's token to
 * POST /auth/verify-email. Throws unless that answers 200.
 */
export async function verifyByMail(service: { readonly url: string; readonly dataDir: string; readonly deliverMail?: () => Promise<void> }, email: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  let text: string | null = null;
  while (text === null) {
    await service.deliverMail?.();
    text = await newestMail(service.dataDir, email, 'Confirm your e-mail address');
    if (text === null) {
      if (Date.now() > deadline) throw new Error(`no verification mail to ${email} under ${mailDir(service.dataDir)}`);
      await sleep(50);
    }
  }
  const verified = await postJson(service.url, '/auth/verify-email', { token: tokenInText(text) });
  if (verified.status !== 200) throw new Error(`verify-email answered ${verified.status}: ${verified.text}`);
}
