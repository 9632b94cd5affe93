const PREFIX = 'Invalid configuration: ';

/**
 * Thrown at start-up for settings that are missing or wrong: every problem found, each naming its variable (and, for
 * a key or secret, the command that makes one). One problem reads `Invalid configuration: <problem>`; several are
 * listed one a line. Never holds a secret's value.
 */
export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(problems: string | readonly string[]) {
    const list = (typeof problems === 'string' ? [problems] : problems).map((problem) => (problem.startsWith(PREFIX) ? problem.slice(PREFIX.length) : problem));
    super(list.length === 1 ? `${PREFIX}${list[0]}` : `Invalid configuration, ${list.length} problems:\n${list.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = list;
  }
}

/**
 * Runs one check of the configuration: what it returns, or `fallback` once the problems of the ConfigError it threw
 * are added to `problems` (so that the next check still runs). Other errors pass through.
 */
export function collecting<T>(problems: string[], check: () => T, fallback: T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
    return fallback;
  }
}
