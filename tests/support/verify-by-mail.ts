import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { simpleParser } from 'mailparser';
import { postJson } from './http-client.js';
import { tokenInText } from './mail.js';

type MailedService = { readonly url: string; readonly dataDir: string; readonly deliverMail?: () => Promise<void> };

/** Where a service on the file sender (the default) writes its mails: one .eml each under DATA_DIR/mail. */
const mailDir = (dataDir: string) => join(dataDir, 'mail');

/** The texts of every mail with this subject to this address written so far, in file-name order. */
async function mailsTo(dataDir: string, to: string, subject: string): Promise<string[]> {
  let files: string[];
  try {
    files = readdirSync(mailDir(dataDir)).filter((name) => name.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  const texts: string[] = [];
  for (const name of files) {
    const parsed = await simpleParser(readFileSync(join(mailDir(dataDir), name)));
    const recipients = [parsed.to ?? []].flat().flatMap((address) => address.value.map((entry) => entry.address));
    if (parsed.subject === subject && recipients.includes(to) && parsed.text !== undefined) texts.push(parsed.text);
  }
  return texts;
}

/** The texts of the mails with `subject` to `email` (in no particular order), once there are `count`, waiting up to 10 s. */
export async function mailedTexts(service: MailedService, email: string, subject: string, count: number): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await service.deliverMail?.();
    const texts = await mailsTo(service.dataDir, email, subject);
    if (texts.length >= count) return texts;
    if (Date.now() > deadline) throw new Error(`${texts.length} of ${count} mails "${subject}" to ${email}`);
    await sleep(50);
  }
}

/** The tokens of the first `count` mails with `subject` to `email` (in no particular order), waiting up to 10 s for them. */
export const mailedTokens = async (service: MailedService, email: string, subject: string, count: number): Promise<string[]> =>
  (await mailedTexts(service, email, subject, count)).map(tokenInText);

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
 * The token of the newest mail with `subject` to `email`, waiting for it (`deliver` runs the service's mail dispatch
 * where the test holds it, else its own job writes it) up to 10 s.
 */
export async function mailedToken(service: MailedService, email: string, subject: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  let text: string | null = null;
  while (text === null) {
    await service.deliverMail?.();
    text = await newestMail(service.dataDir, email, subject);
    if (text === null) {
      if (Date.now() > deadline) throw new Error(`no mail "${subject}" to ${email} under ${mailDir(service.dataDir)}`);
      await sleep(50);
    }
  }
  return tokenInText(text);
}

/** Proves `email` over HTTP as its owner does: the link of its verification mail, posted to POST /auth/verify-email. */
export async function verifyByMail(service: MailedService, email: string): Promise<void> {
  const verified = await postJson(service.url, '/auth/verify-email', { token: await mailedToken(service, email, 'Confirm your e-mail address') });
  if (verified.status !== 200) throw new Error(`verify-email answered ${verified.status}: ${verified.text}`);
}
