import { randomUUID } from 'node:crypto';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { pino } from 'pino';
import { loadConfig } from './infrastructure/config/config.js';
import type { AdminCommand, CommandOption } from './infrastructure/container/admin-command.js';
import { bindingOf, compose } from './infrastructure/container/composition.js';
import { SIGNING_KEY } from './infrastructure/container/tokens.js';
import { signingKeyFor } from './infrastructure/security/service-keys.js';
import { CAPABILITIES } from './capabilities/index.js';
import type { Storage } from './infrastructure/storage/storage.js';

export type AnyCommand = AdminCommand<never>;

/** Every command of the command line: those the capabilities declare (src/capabilities/index.ts). */
export const COMMANDS: readonly AnyCommand[] = CAPABILITIES.flatMap((capability) => capability.commands as readonly AnyCommand[]);

const FOOTER = [
  '',
  'An option takes its value as "--name value" or "--name=value". "help <command>" shows a command\'s usage.',
  'The result is one line of JSON on stdout; notices and errors go to stderr.',
  'Exit status: 0 done, 1 refused or failed (one line on stderr), 2 a usage error.',
].join('\n');

export interface AdminIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

const STD_IO: AdminIo = { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) };

/** A command and its input, as commander parsed them from the command line. */
export interface Parsed {
  readonly command: AnyCommand;
  readonly input: Readonly<Record<string, unknown>>;
}

const kebab = (name: string): string => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** One declared option as commander's: a repeatable one collects its values, any other refuses to be given twice. */
function optionOf(key: string, declared: CommandOption): Option {
  if (declared.value === undefined) return new Option(`--${kebab(key)}`, declared.description);
  const option = new Option(`--${kebab(key)} <${declared.value}>`, declared.repeatable ? `${declared.description} (repeatable)` : declared.description);
  if (declared.choices) option.choices(declared.choices);
  option.argParser((value: string, previous: unknown): unknown => {
    if (declared.choices && !declared.choices.includes(value)) throw new InvalidArgumentError(`Allowed choices are ${declared.choices.join(', ')}.`);
    if (declared.repeatable) return [...((previous as string[] | undefined) ?? []), value];
    if (previous !== undefined) throw new InvalidArgumentError('It is given more than once.');
    return value;
  });
  return declared.required ? option.makeOptionMandatory() : option;
}

/** What `run` receives: each argument by its name, each option by its key (a flag not given: false; a list: []). */
function inputOf(command: AnyCommand, parsed: Command): Record<string, unknown> {
  const values = parsed.opts();
  return {
    ...Object.fromEntries((command.arguments ?? []).map((argument, at) => [argument.name, parsed.processedArgs[at] as unknown])),
    ...Object.fromEntries(
      Object.entries(command.options ?? {}).map(([key, declared]) => {
        const value = values[key] as unknown;
        return [key, value ?? (declared.value === undefined ? false : declared.repeatable ? [] : undefined)];
      }),
    ),
  };
}

/** The command line as commander's program, built from the declarations; its action only records what was parsed. */
function programOf(commands: readonly AnyCommand[], io: AdminIo, parsed: (result: Parsed) => void, wroteErr: () => void): Command {
  const write = (to: (line: string) => void) => (text: string) => to(text.replace(/\n$/, ''));
  const program = new Command('npm run admin --')
    .description('The service\'s command line: opens the configured store, runs one command, prints its JSON and closes.')
    .exitOverride()
    .configureOutput({ writeOut: write(io.out), writeErr: (text) => (wroteErr(), write(io.err)(text)) })
    .showHelpAfterError(true)
    .allowExcessArguments(false)
    .helpCommand('help [command]', 'show the usage of the command line, or of one command')
    .addHelpText('afterAll', FOOTER);
  for (const command of commands) {
    const sub = program.command(command.name).description(command.summary).allowExcessArguments(false);
    for (const argument of command.arguments ?? []) sub.argument(argument.optional ? `[${argument.name}]` : `<${argument.name}>`, argument.description);
    for (const [key, declared] of Object.entries(command.options ?? {})) sub.addOption(optionOf(key, declared));
    sub.action((...params: unknown[]) => parsed({ command, input: inputOf(command, params.at(-1) as Command) }));
  }
  return program;
}

/**
 * Parses `args` with the declarations (`commands`: the capabilities'): the command and its input, or the exit code
 * when there is nothing to run (0 for help, on stdout; 2 for a usage error, on stderr: commander writes help there
 * when no command or an unknown one is named). Opens and writes nothing.
 */
export async function parseCommandLine(args: readonly string[], io: AdminIo, commands: readonly AnyCommand[] = COMMANDS): Promise<Parsed | number> {
  let result: Parsed | undefined;
  let usageError = false;
  const program = programOf(commands, io, (parsed) => (result = parsed), () => (usageError = true));
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    const help = (error.code === 'commander.help' || error.code === 'commander.helpDisplayed') && !usageError;
    return help ? 0 : 2;
  }
  return result ?? 2;
}

const messageOf = (error: unknown): string => {
  const issues = (error as { issues?: readonly { field: string | null; message: string }[] }).issues ?? [];
  return `${error instanceof Error ? error.message : String(error)}${issues.map((issue) => `; ${issue.field ?? 'input'} ${issue.message}`).join('')}`;
};

/**
 * The admin command line (`npm run admin -- ...`): the second composition root beside main.ts. It parses the command
 * line from the commands the capabilities declare, and only then opens the configured store as the service does (the
 * embedded store is shared between processes, so it works while the service runs; on MongoDB, from anywhere that
 * reaches it), runs one use case, prints JSON on stdout and closes. Returns the exit code: 0 done (or help, on
 * stdout), 1 refused or failed (one line on stderr), 2 a usage error (on stderr, before anything is opened).
 */
/**
 * Runs one command. `storage`: a store this process already opened (a service running in it, as in the tests): used
 * as it is and left open, since LMDB must not be opened twice in one process.
 */
export async function runAdmin(args: readonly string[], env: Record<string, string | undefined> = process.env, io: AdminIo = STD_IO, storage?: Storage): Promise<number> {
  const parsed = await parseCommandLine(args, io);
  if (typeof parsed === 'number') return parsed;
  const { command, input } = parsed;
  let composition: Awaited<ReturnType<typeof compose>> | undefined;
  try {
    const config = loadConfig(env, CAPABILITIES);
    // The signing key as the service reads it, without the warning of a generated key: that one is for the service's start.
    const signingKey = signingKeyFor(config, { warn: () => undefined });
    const logger = pino({ level: config.logLevel === 'silent' ? 'silent' : 'warn' }, { write: (line: string) => io.err(line.replace(/\n$/, '')) });
    composition = await compose(config, logger, { bindings: [bindingOf(SIGNING_KEY, signingKey)], storage }, CAPABILITIES);
    const metadata = { requestId: `cli-${randomUUID()}`, clientIp: null, userAgent: null };
    const { out, notice } = await command.run(composition.useCases as never, input as never, metadata);
    io.out(JSON.stringify(out));
    if (notice !== undefined) io.err(notice);
    return 0;
  } catch (error) {
    io.err(`admin ${command.name}: ${messageOf(error)}`);
    return 1;
  } finally {
    if (storage === undefined) await composition?.storage.close();
  }
}

/** `node dist/admin.cjs ...` (src/admin.cts, after its check of Node's version): runs the command line on this process's. */
export function runAdminFromCommandLine(): void {
  runAdmin(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`admin failed: ${messageOf(error)}\n`);
      process.exitCode = 1;
    },
  );
}
