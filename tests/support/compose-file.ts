import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';

/** One service of a Compose file, as far as the tests read it (after anchors, merges and `extends`). */
export interface ComposeService {
  readonly image?: string;
  readonly build?: string | { readonly context: string };
  readonly command?: readonly string[] | string;
  readonly environment?: Readonly<Record<string, string>>;
  readonly depends_on?: Readonly<Record<string, { readonly condition: string }>>;
  readonly volumes?: readonly string[];
  readonly ports?: readonly string[];
  readonly healthcheck?: { readonly test: readonly string[] };
  readonly restart?: string;
  readonly deploy?: { readonly resources?: { readonly limits?: { readonly cpus?: string; readonly memory?: string } } };
  readonly extends?: { readonly file: string; readonly service: string };
}

export interface ComposeFile {
  /** The folder paths in the file are relative to. */
  readonly dir: string;
  readonly services: Readonly<Record<string, ComposeService>>;
  readonly volumes: Readonly<Record<string, unknown>>;
}

/** `${NAME}` and `${NAME:-default}` as Compose interpolates them, from `env` (a test passes none: the defaults). */
const interpolated = (text: string, env: Readonly<Record<string, string>>): string =>
  text.replace(/\$\{([A-Z0-9_]+)(?::-([^}]*))?\}/g, (_whole, name: string, fallback: string | undefined) => env[name] ?? fallback ?? '');

const dependsOn = (value: unknown): Record<string, { condition: string }> | undefined => {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return Object.fromEntries(value.map((name: string) => [name, { condition: 'service_started' }]));
  return value as Record<string, { condition: string }>;
};

/**
 * Reads a Compose file as `docker compose config` resolves it, for what these files use: interpolation with defaults,
 * YAML anchors and merge keys, `extends` from another file (its paths taken relative to that file), and `depends_on`
 * in either form. Anything else is left as written.
 */
export function readCompose(path: string, env: Readonly<Record<string, string>> = {}): ComposeFile {
  const dir = dirname(resolve(path));
  const raw = parse(interpolated(readFileSync(path, 'utf8'), env), { merge: true }) as { services: Record<string, Record<string, unknown>>; volumes?: Record<string, unknown> };
  const services: Record<string, ComposeService> = {};
  for (const [name, service] of Object.entries(raw.services)) {
    const { extends: base, ...own } = service as ComposeService & Record<string, unknown>;
    const inherited = base === undefined ? {} : readCompose(join(dir, base.file), env).services[base.service];
    if (inherited === undefined) throw new Error(`${path}: ${name} extends ${base?.service}, which ${base?.file} does not define`);
    services[name] = { ...inherited, ...own, depends_on: dependsOn(own.depends_on ?? inherited.depends_on) } as ComposeService;
  }
  return { dir, services, volumes: raw.volumes ?? {} };
}

/** The command a service runs, as its argument list. */
export const commandOf = (service: ComposeService): readonly string[] => (typeof service.command === 'string' ? service.command.split(/\s+/) : (service.command ?? []));

/** A volume entry `source:target[:mode]`, split. */
export const mountOf = (entry: string): { source: string; target: string; readOnly: boolean } => {
  const [source = '', target = '', mode] = entry.split(':');
  return { source, target, readOnly: mode === 'ro' };
};

/** The `ENV` settings of a Dockerfile's last stage, the environment every container of the image starts with. */
export function imageEnvironment(dockerfile: string): Record<string, string> {
  const stages = readFileSync(dockerfile, 'utf8').replace(/\\\n/g, ' ').split(/^FROM /m);
  const last = stages.at(-1) ?? '';
  const env: Record<string, string> = {};
  for (const line of last.split('\n').filter((text) => text.startsWith('ENV '))) {
    for (const [, name, value] of line.slice(4).matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)) env[name as string] = value as string;
  }
  return env;
}

/** An nginx directive: its name, its arguments, and the blocks it opens (`upstream x { ... }`). */
export interface NginxDirective {
  readonly name: string;
  readonly args: readonly string[];
  readonly block?: readonly NginxDirective[];
}

/** Parses nginx's configuration syntax (directives, `;`, `{ }` blocks, `#` comments, quoted arguments). */
export function parseNginx(text: string): NginxDirective[] {
  const tokens = [...text.replace(/#[^\n]*/g, '').matchAll(/"([^"]*)"|'([^']*)'|([{};])|([^\s{};"']+)/g)].map((match) => match[1] ?? match[2] ?? match[3] ?? match[4] ?? '');
  let at = 0;
  const block = (): NginxDirective[] => {
    const directives: NginxDirective[] = [];
    const words: string[] = [];
    while (at < tokens.length) {
      const token = tokens[at++] as string;
      if (token === '}') break;
      if (token === ';') {
        directives.push({ name: words[0] ?? '', args: words.slice(1) });
        words.length = 0;
      } else if (token === '{') {
        directives.push({ name: words[0] ?? '', args: words.slice(1), block: block() });
        words.length = 0;
      } else {
        words.push(token);
      }
    }
    if (words.length > 0) throw new Error(`nginx: "${words.join(' ')}" lacks its ;`);
    return directives;
  };
  return block();
}

/** Every directive named `name` anywhere under `directives`. */
export const nginxFind = (directives: readonly NginxDirective[], name: string): NginxDirective[] =>
  directives.flatMap((directive) => [...(directive.name === name ? [directive] : []), ...nginxFind(directive.block ?? [], name)]);
