/**
 * What a microsecond of event-loop work costs a route on this machine: the bare route made to spend `micros` µs of
 * CPU per answer (a busy wait, `GET /work/:micros` of bare-server.ts) before it answers the same bytes, each point as
 * a share of the bare route's answers per second in the same run. A target given as a share of the bare route is
 * thereby a budget of work per answer; `budgetFor` reads it off the curve.
 */

/** The extra work per answer the curve is measured at, in µs (0: the parameterised route alone, as a check). */
export const WORK_POINTS_MICROS = [0, 10, 20, 40, 80, 160] as const;

export interface WorkPoint {
  /** Extra event-loop CPU per answer, µs. */
  readonly micros: number;
  /** Answers per second as a share of the bare route's in the same run. */
  readonly perBare: number;
  /** Event-loop CPU per answer, µs: the work plus what the route pays besides it. */
  readonly loopMicros: number;
}

/** Spends `micros` µs of CPU on the calling thread (what a route's own work does to its event loop). */
export const busyWait = (micros: number): void => {
  const end = process.hrtime.bigint() + BigInt(Math.round(micros * 1000));
  while (process.hrtime.bigint() < end) {
    // burning CPU is the point
  }
};

/**
 * The extra work per answer at which the curve falls to `share` of the bare route, interpolated linearly between the
 * two points around it (the curve falls as work grows); null when `share` is outside what the points span.
 */
export function budgetFor(curve: readonly WorkPoint[], share: number): number | null {
  const points = [...curve].sort((a, b) => a.micros - b.micros);
  for (let i = 1; i < points.length; i += 1) {
    const [before, after] = [points[i - 1], points[i]];
    if (!before || !after || before.perBare < share || after.perBare > share) continue;
    if (before.perBare === after.perBare) return before.micros;
    return before.micros + ((before.perBare - share) / (before.perBare - after.perBare)) * (after.micros - before.micros);
  }
  return null;
}
