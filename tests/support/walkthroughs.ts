/**
 * Walk-throughs that a test runs: the convention for doc writers, and its runner.
 *
 * WRITING ONE (README.md, docs/*.md)
 *
 * A walk-through is a fenced block whose info string is `sh walkthrough` (GitHub highlights it as `sh`; a
 * plain `sh` block is not run). Its body is plain bash that a reader copies into a terminal against the
 * service on `localhost:3000` (`npm start`), using only `curl` and `jq`:
 *
 *     ```sh walkthrough
 *     EMAIL="ada-$(date +%s)-$RANDOM@example.com"
 *     TOKEN=$(curl -s -X POST localhost:3000/auth/sign-up -H 'Content-Type: application/json' \
 *       -d "{\"name\":\"Ada\",\"lastname\":\"Lovelace\",\"email\":\"$EMAIL\",\"password\":\"analytical engine 1843\"}" \
 *       | jq -r .data.accesstoken)
 *     # → 201 .data.user.id .data.accesstoken (.data.user.email | startswith("ada-"))
 *     curl -s -X POST localhost:3000/auth/sign-out -H "Authorization: Bearer $TOKEN"   # → 204 empty
 *     ```
 *
 * - A PROMISE is a comment `# → STATUS CHECK...`, on its own line right after a command or at the end of the
 *   command's last line. It speaks of the answer of the last `curl` run before it: STATUS is its HTTP status
 *   (three digits), and each CHECK must hold for the body `curl` printed:
 *     - a jq path (`.data.user.email`, `.data.sessions[0].id`): present and not null;
 *     - `empty`: the body is empty (a 204);
 *     - any other jq expression that prints `true`: `.data.user.emailverified==false`, or with spaces inside
 *       parentheses: `(.data.sessions | length == 2)`. Checks are split at spaces outside quotes and brackets.
 *   Checks are evaluated after the script ends, so they cannot read the script's variables.
 * - Write `curl` plainly (`curl -s …`), with no `-D` of your own; keep `-o`, `-w` and `-i` off a command whose
 *   promise names fields (the checks read what curl printed). Call `curl` from the script itself (also inside
 *   `$(…)`, pipes and functions it defines), not through `xargs`, `env` or another `bash`.
 * - Use `localhost:3000` in every URL (with or without `http://`): the runner sends it to the service it started.
 * - Runs as often as you like: use a new address each run, `EMAIL="ada-$(date +%s)-$RANDOM@example.com"`. The
 *   runner runs every block twice in a row against one service, and gives each run its own seed for `$RANDOM`
 *   so that two runs in the same second still differ.
 * - The script runs under `set -e -o pipefail`: a command that fails fails the walk-through. It runs in a
 *   directory where `data/` is the service's DATA_DIR and `node_modules/` the repository's, as if in the repository
 *   root after `npm start` (so `data/mail/*.eml` can be read); pick a mail by its address, not by being newest.
 *
 * RUNNING THEM (tests/http/walkthroughs.http.spec.ts)
 *
 * Each block is written to a file and run by `bash` with `BASH_ENV` pointing at a prelude (invisible in the docs)
 * that turns on `set -e -o pipefail`, seeds `$RANDOM`, and defines a `curl` function: it runs the real curl with
 * `--connect-to localhost:3000:127.0.0.1:PORT` (the URL and Host header stay as written; the connection goes to
 * the started service), `-D` to record the headers, and `tee`s the body it prints to a file. Each promise line
 * gets a call that snapshots the last answer (the line count of the block is unchanged, so bash's line numbers
 * are the block's). After the script ends, each reached promise is checked against its snapshot with `jq`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/** A `# → STATUS CHECK...` comment: what the answer of the last curl before it must be. */
export interface Promised {
  /** 1-based line in the markdown file. */
  readonly line: number;
  readonly status: number;
  readonly checks: readonly string[];
  /** The promise as written, from the `#`. */
  readonly text: string;
}

/** One fenced `sh walkthrough` block. */
export interface WalkthroughBlock {
  /** The markdown file, as given to {@link parseWalkthroughs}. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The nearest heading above the block ('' when none). */
  readonly heading: string;
  /** The lines between the fences. */
  readonly lines: readonly string[];
  readonly promises: readonly Promised[];
}

/** What one run of a block left behind. */
export interface WalkthroughRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly reached: readonly Reached[];
}

/** A promise line the script went through, with the answer it speaks of. */
export interface Reached {
  readonly promise: Promised;
  /** Undefined when no curl ran before it. */
  readonly answer: { readonly status: number | undefined; readonly body: string; readonly curlExit: number } | undefined;
}

const OPENING = /^ {0,3}(`{3,}|~{3,})\s*(?:sh|bash)\s+walkthrough\s*$/;
const ANY_FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
/** `# → …`, on its own line or after a command (then preceded by a space). */
const PROMISE = /(^|\s)#\s*→(.*)$/;
const BARE_PATH = /^\.(?:[A-Za-z_]\w*)?(?:\.[A-Za-z_]\w*|\[\d+\])*$/;

/** The README and docs/*.md under a repository root, in that order (docs sorted by name), those that exist. */
export const walkthroughFiles = (root: string): string[] => {
  const docs = join(root, 'docs');
  const inDocs = existsSync(docs) ? readdirSync(docs).filter((name) => name.endsWith('.md')).sort().map((name) => join(docs, name)) : [];
  return [join(root, 'README.md'), ...inDocs].filter((path) => existsSync(path));
};

/** Splits a promise's checks at whitespace outside quotes, parentheses, brackets and braces. */
export const splitChecks = (text: string): string[] => {
  const checks: string[] = [];
  let current = '';
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') current += c + (text[++i] ?? '');
      else {
        if (c === quote) quote = undefined;
        current += c;
      }
      continue;
    }
    if (/\s/.test(c) && depth === 0) {
      if (current) checks.push(current);
      current = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    current += c;
  }
  if (quote || depth !== 0) throw new Error(`unbalanced quotes or brackets in "${text}"`);
  if (current) checks.push(current);
  return checks;
};

/** Parses what follows `# →`: a three-digit status, then checks. Throws on anything else. */
export const parsePromise = (afterArrow: string): { status: number; checks: string[] } => {
  const match = /^\s*(\d{3})(?:\s+(.*))?$/.exec(afterArrow.trim());
  if (!match) throw new Error(`a promise starts with a three-digit HTTP status: "# →${afterArrow}"`);
  return { status: Number(match[1]), checks: splitChecks(match[2] ?? '') };
};

/** The promise on a block line, if any (the line number is the file's). */
const promiseOn = (text: string, line: number, file: string): Promised | undefined => {
  const match = PROMISE.exec(text);
  if (!match) return undefined;
  try {
    return { line, ...parsePromise(match[2] ?? ''), text: text.slice(match.index + (match[1] ?? '').length) };
  } catch (error) {
    throw new Error(`${file}:${line}: ${(error as Error).message}`);
  }
};

/** Every `sh walkthrough` block of a markdown text, in order. Throws on an unclosed block or a malformed promise. */
export const parseWalkthroughs = (markdown: string, file: string): WalkthroughBlock[] => {
  const lines = markdown.split(/\r?\n/);
  const blocks: WalkthroughBlock[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const fence = ANY_FENCE.exec(lines[i]!);
    if (!fence) {
      heading = HEADING.exec(lines[i]!)?.[1] ?? heading;
      continue;
    }
    const marker = fence[1]!;
    const close = lines.findIndex((text, j) => j > i && text.trim().startsWith(marker) && /^[`~]+$/.test(text.trim()) && text.trim()[0] === marker[0]);
    if (close < 0) throw new Error(`${file}:${i + 1}: a fenced block that is never closed`);
    if (OPENING.test(lines[i]!)) {
      const body = lines.slice(i + 1, close);
      const promises = body.flatMap((text, k) => promiseOn(text, i + 2 + k, file) ?? []);
      blocks.push({ file, line: i + 1, heading, lines: body, promises });
    }
    i = close;
  }
  return blocks;
};

/** The block as the runner runs it: each promise line also snapshots the last answer; line count unchanged. */
export const instrument = (block: WalkthroughBlock): string =>
  block.lines
    .map((text, k) => {
      const index = block.promises.findIndex((promise) => promise.line === block.line + 1 + k);
      if (index < 0) return text;
      const match = PROMISE.exec(text)!;
      const start = match.index + (match[1] ?? '').length;
      const code = text.slice(0, start);
      const hook = `__walkthrough_promise ${index}`;
      if (code.trim() === '') return `${code}${hook} ${text.slice(start)}`;
      return `${code.trimEnd()}${code.trimEnd().endsWith(';') ? ' ' : '; '}${hook} ${text.slice(start)}`;
    })
    .join('\n') + '\n';

/** The prelude bash sources (BASH_ENV) before a block: strict mode, seeded $RANDOM, the recording curl. */
const PRELUDE = String.raw`
unset BASH_ENV
set -e -o pipefail
RANDOM=$WALKTHROUGH_SEED
curl() {
  local rc=0
  rm -f "$WALKTHROUGH_DIR/last.headers" "$WALKTHROUGH_DIR/last.body"
  { command curl --connect-to "localhost:3000:127.0.0.1:$WALKTHROUGH_PORT" --connect-to "127.0.0.1:3000:127.0.0.1:$WALKTHROUGH_PORT" \
      -D "$WALKTHROUGH_DIR/last.headers" "$@" | tee "$WALKTHROUGH_DIR/last.body"; } || rc=$?
  echo "$rc" > "$WALKTHROUGH_DIR/last.exit"
  return "$rc"
}
__walkthrough_promise() {
  local k
  k=$(wc -l < "$WALKTHROUGH_DIR/reached")
  if [[ -f "$WALKTHROUGH_DIR/last.exit" ]]; then
    cp "$WALKTHROUGH_DIR/last.exit" "$WALKTHROUGH_DIR/reach-$k.exit"
    cp "$WALKTHROUGH_DIR/last.body" "$WALKTHROUGH_DIR/reach-$k.body" 2>/dev/null || : > "$WALKTHROUGH_DIR/reach-$k.body"
    cp "$WALKTHROUGH_DIR/last.headers" "$WALKTHROUGH_DIR/reach-$k.headers" 2>/dev/null || : > "$WALKTHROUGH_DIR/reach-$k.headers"
  fi
  echo "$1" >> "$WALKTHROUGH_DIR/reached"
}
`;

/** The status of the last response in a `curl -D` header dump (after any 100 Continue). */
export const statusOf = (headers: string): number | undefined => {
  const statuses = [...headers.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].map((match) => Number(match[1]));
  return statuses.at(-1);
};

const readReached = (dir: string, block: WalkthroughBlock): Reached[] =>
  readFileSync(join(dir, 'reached'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((index, k) => {
      const promise = block.promises[Number(index)]!;
      if (!existsSync(join(dir, `reach-${k}.exit`))) return { promise, answer: undefined };
      return {
        promise,
        answer: {
          status: statusOf(readFileSync(join(dir, `reach-${k}.headers`), 'utf8')),
          body: readFileSync(join(dir, `reach-${k}.body`), 'utf8'),
          curlExit: Number(readFileSync(join(dir, `reach-${k}.exit`), 'utf8').trim()),
        },
      };
    });

/** Where and against what a block runs. */
export interface RunOptions {
  /** The started service listens on 127.0.0.1:port; it stands in for localhost:3000. */
  readonly port: number;
  /** Seeds `$RANDOM`: give every run against one service its own. */
  readonly seed: number;
  /** The service's DATA_DIR: the script sees it as `data/` (as `npm start` in the repository root would). */
  readonly dataDir?: string;
}

/**
 * Runs one block with bash in a fresh working directory (holding `data/` when given and the repository's
 * `node_modules/`, as the repository root would). Asynchronous, so that a service in this very process can answer.
 */
export const runWalkthrough = async (block: WalkthroughBlock, options: RunOptions): Promise<WalkthroughRun> => {
  const dir = mkdtempSync(join(tmpdir(), 'walkthrough-'));
  try {
    if (options.dataDir !== undefined) symlinkSync(options.dataDir, join(dir, 'data'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    // The repository's scripts, so that `npm run -s admin -- ...` works there as in the repository root.
    for (const entry of ['package.json', 'tools', 'dist', 'src', 'tsconfig.json', 'tsconfig.build.json']) symlinkSync(join(ROOT, entry), join(dir, entry));
    const state = join(dir, '.walkthrough');
    mkdirSync(state);
    writeFileSync(join(state, 'prelude.sh'), PRELUDE);
    writeFileSync(join(state, 'block.sh'), instrument(block));
    writeFileSync(join(state, 'reached'), '');
    const env = { ...process.env, BASH_ENV: join(state, 'prelude.sh'), WALKTHROUGH_DIR: state, WALKTHROUGH_PORT: String(options.port), WALKTHROUGH_SEED: String(options.seed) };
    const child = spawn('bash', ['--noprofile', '--norc', join(state, 'block.sh')], { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exitCode = await new Promise<number>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
    });
    return { exitCode, stdout, stderr, reached: readReached(state, block) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** Runs jq on a body; `ok` when it printed exactly `true`. */
const jqHolds = (expression: string, body: string): { ok: boolean; said: string } => {
  const result = spawnSync('jq', ['-c', expression], { input: body, encoding: 'utf8' });
  const said = result.status === 0 ? result.stdout.trim() : `jq failed: ${result.stderr.trim()}`;
  return { ok: result.status === 0 && said === 'true', said };
};

/** The first check of a promise that the body breaks, described; undefined when all hold. */
export const brokenCheck = (check: string, body: string): string | undefined => {
  if (check === 'empty') return body === '' ? undefined : `${check}: the body is not empty`;
  if (body.trim() === '') return `${check}: the body is empty`;
  if (BARE_PATH.test(check)) {
    const { ok } = jqHolds(`(${check}) != null`, body);
    return ok ? undefined : `${check}: expected present and not null, got ${jqHolds(check, body).said}`;
  }
  const { ok, said } = jqHolds(check, body);
  return ok ? undefined : `${check}: expected true, got ${said}`;
};

const shorten = (text: string, max = 600): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/** What a reached promise got wrong, or undefined when it holds. */
const brokenPromise = ({ promise, answer }: Reached): string | undefined => {
  if (!answer) return 'no curl ran before this promise';
  if (answer.status === undefined) return `expected status ${promise.status}, got no answer (curl exit status ${answer.curlExit})`;
  const problems = [
    ...(answer.status === promise.status ? [] : [`status: expected ${promise.status}, got ${answer.status}`]),
    ...promise.checks.flatMap((check) => brokenCheck(check, answer.body) ?? []),
  ];
  return problems.length === 0 ? undefined : `${problems.join('; ')}\n    body: ${shorten(answer.body.trim()) || '(empty)'}`;
};

/** Names a block for a reader: `README.md:245 ("Walk-through")`. */
export const describeBlock = (block: WalkthroughBlock, root = process.cwd()): string =>
  `${relative(root, block.file) || block.file}:${block.line}${block.heading ? ` ("${block.heading}")` : ''}`;

/**
 * Everything a run got wrong, each naming the file and line: broken promises (expected vs actual), promises never
 * reached, a non-zero exit status. An empty list means the run kept every promise.
 */
export const problemsOf = (block: WalkthroughBlock, run: WalkthroughRun): string[] => {
  const file = relative(process.cwd(), block.file) || block.file;
  const broken = run.reached.flatMap((reached) => {
    const problem = brokenPromise(reached);
    return problem === undefined ? [] : [`${file}:${reached.promise.line}: ${reached.promise.text}\n    ${problem}`];
  });
  const reachedLines = new Set(run.reached.map((reached) => reached.promise.line));
  const unreached = block.promises.filter((promise) => !reachedLines.has(promise.line)).map((promise) => `${file}:${promise.line}: ${promise.text}\n    never reached`);
  const exit = run.exitCode === 0 ? [] : [`the script exited with status ${run.exitCode} (bash's line N is ${file}:${block.line}+N)\n    stderr: ${shorten(run.stderr.trim()) || '(empty)'}`];
  return [...broken, ...unreached, ...exit];
};

/** The tools a walk-through needs that are not on PATH (`curl`, `jq`, `bash`). */
export const missingTools = (): string[] =>
  ['bash', 'curl', 'jq'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status !== 0);
