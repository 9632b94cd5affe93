import { expect } from 'chai';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/** The pages a reader follows: the README and every page under docs/. */
const PAGES = ['README.md', ...readdirSync('docs').filter((name) => name.endsWith('.md')).map((name) => join('docs', name))];

const withoutCode = (text: string): string => text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, (span) => span.replace(/[[\]()]/g, ' '));

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`; repeats get `-1`, `-2`. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading = ''] of markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6} (.*)$/gm)) {
    const base = heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, '').replace(/ /g, '-');
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n += 1) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Every relative link of a page that leads nowhere: a missing file, or a heading the target page does not have. */
function brokenLinks(page: string): string[] {
  const broken: string[] = [];
  for (const [, target = ''] of withoutCode(readFileSync(page, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^(https?:|mailto:)/.test(target)) continue;
    const [path = '', anchor] = target.split('#');
    const file = path === '' ? page : normalize(join(dirname(page), path));
    if (!existsSync(file)) broken.push(`${page}: ${target} (no file ${file})`);
    else if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) {
      broken.push(`${page}: ${target} (no heading #${anchor} in ${file})`);
    }
  }
  return broken;
}

describe('Docs: every link between the pages leads somewhere', () => {
  it('finds the README and the docs pages', () => {
    expect(PAGES).to.include.members(['README.md', join('docs', 'api.md'), join('docs', 'configuration.md')]);
  });

  it('resolves every relative link to an existing file and heading', () => {
    expect(PAGES.flatMap(brokenLinks)).to.deep.equal([]);
  });

  it('names only sections that exist when it sends the reader to one in words (`see "Hashing threads" in the README`)', () => {
    const stale = PAGES.flatMap((page) =>
      [...withoutCode(readFileSync(page, 'utf8')).matchAll(/"([^"\n]{3,80})" in (the README|docs\/[\w-]+\.md|[\w-]+\.md)/g)].flatMap(([, title = '', where = '']) => {
        const file = where === 'the README' ? 'README.md' : where.startsWith('docs/') ? where : join(dirname(page), where);
        const anchor = [...anchorsOf(`# ${title}`)][0] ?? '';
        return existsSync(file) && anchorsOf(readFileSync(file, 'utf8')).has(anchor) ? [] : [`${page}: "${title}" in ${where}`];
      }),
    );
    expect(stale).to.deep.equal([]);
  });

  it('names headings as GitHub does (so a renamed heading breaks the links to it here first)', () => {
    expect([...anchorsOf('# API reference\n## `POST /auth/sign-up`\n## Node.js version\n## Errors\n## Errors\n')]).to.deep.equal([
      'api-reference', 'post-authsign-up', 'nodejs-version', 'errors', 'errors-1',
    ]);
  });
});
