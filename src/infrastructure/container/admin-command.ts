/**
 * One command of `npm run admin` as a capability declares it in its manifest (`commands`): its name, a summary, its
 * positional arguments and its options, and what it does with the parsed input. src/admin.ts parses the command line
 * from these declarations (with commander): `--help`, the usage errors, `--opt value` and `--opt=value` are its; a
 * command is only data and one function, like an HTTP operation (`defineOperation`).
 */
export interface AdminCommand<U, A extends readonly CommandArgument[] = readonly CommandArgument[], O extends CommandOptions = CommandOptions> {
  /** What the operator types after `npm run admin --` (kebab-case). */
  readonly name: string;
  /** One line for `help`: what it does. */
  readonly summary: string;
  /** Its positional arguments, in order; a required one after an optional one is refused by commander. */
  readonly arguments?: A;
  /** Its options, by the name `run` reads them under (camelCase; the flag is its kebab-case: `redirectUri` is `--redirect-uri`). */
  readonly options?: O;
  /** Runs with the parsed input (never raw argv); returns what it prints on stdout as JSON, and a notice for stderr. */
  run(useCases: U, input: CommandInput<A, O>, metadata: AdminMetadata): Promise<AdminOutput>;
}

/** What a command prints: `out` as one line of JSON on stdout, `notice` on stderr. */
export interface AdminOutput {
  readonly out: unknown;
  readonly notice?: string;
}

/** Who the command line acts as: a request id of its own, no client address. */
export interface AdminMetadata {
  readonly requestId: string;
  readonly clientIp: null;
  readonly userAgent: null;
}

/** A positional argument: `<name>`, or `[name]` when optional (its value is then undefined when not given). */
export interface CommandArgument {
  readonly name: string;
  readonly description: string;
  readonly optional?: boolean;
}

/**
 * An option. With `value` (the placeholder help shows: `--name <NAME>`) it takes one, a string (undefined when not
 * given, unless `required`); `repeatable`, it may be given any number of times and is the list of its values in order
 * ([] when not given, at least one when `required`); `choices` limits the values (a usage error otherwise; `run` still
 * sees a string: TypeScript does not keep the literals while it types `run`). Without `value` it is a flag: true when
 * given, else false. Giving a non-repeatable option twice is a usage error.
 */
export type CommandOption =
  | { readonly description: string; readonly value: string; readonly required?: boolean; readonly repeatable?: boolean; readonly choices?: readonly string[] }
  | { readonly description: string; readonly value?: undefined };

export type CommandOptions = Readonly<Record<string, CommandOption>>;

/** What `run` receives for an option: see CommandOption. */
export type OptionInput<O> = O extends { readonly value: string }
  ? O extends { readonly repeatable: true }
    ? readonly string[]
    : O extends { readonly required: true }
      ? string
      : string | undefined
  : boolean;

/** What `run` receives: each argument by its name, each option by its key. */
export type CommandInput<A extends readonly CommandArgument[], O extends CommandOptions> = {
  readonly [K in A[number] as K['name']]: K extends { readonly optional: true } ? string | undefined : string;
} & { readonly [K in keyof O]: OptionInput<O[K]> };

/**
 * Declares a command of a capability whose use cases are `U`, keeping its arguments' and options' literal types so
 * that `run`'s input is typed from them: `defineCommand<ApiKeyUseCases>()({ name, summary, options, run })`.
 */
export const defineCommand =
  <U>() =>
  <const A extends readonly CommandArgument[] = readonly [], const O extends CommandOptions = Record<never, never>>(command: AdminCommand<U, A, O>): AdminCommand<U> =>
    command;
