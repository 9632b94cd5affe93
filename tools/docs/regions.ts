import { renderActivityTypes, renderErrorCodes, renderFieldIssueCodes, renderMetricOutcomes } from './code-tables.js';
import { renderConfigTable } from './config-table.js';

/** Renders the markdown of one region from the code's own tables. */
export type RegionGenerator = () => string;

/**
 * Every region name a page may use, with what fills it. A page holds a region as two marker lines, each alone on
 * its line: `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`; whatever lies between them is replaced.
 */
export const REGION_GENERATORS: Readonly<Record<string, RegionGenerator>> = {
  'error-codes': () => renderErrorCodes(),
  'field-issue-codes': () => renderFieldIssueCodes(),
  'activity-types': () => renderActivityTypes(),
  'metric-outcomes': () => renderMetricOutcomes(),
  'config-table': () => renderConfigTable(),
};

/** A page whose markers cannot be filled: an unknown name, a region left open, a closing marker with no opening. */
export class RegionError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Generated regions cannot be filled:\n  ${problems.join('\n  ')}`);
    this.name = 'RegionError';
  }
}

/** One region: its name and where its content (the lines between the two markers) starts and ends. */
export interface Region {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

/** A marker is a whole line outside code blocks, so that a page may quote the syntax without opening a region. */
const MARKER = /^<!-- (\/?)generated:(\S+?) -->\r?$/gm;
/** A line that was meant as a marker (a comment naming `generated:`) but is not spelled as one: it would be ignored. */
const NEAR_MARKER = /^\s*<!--\s*\/?\s*generated\s*:.*-->\s*$/;

/** The 1-based numbers of the lines inside fenced code blocks: a marker shown there as an example is no marker. */
const fencedLines = (text: string): Set<number> => {
  const fenced = new Set<number>();
  let inside = false;
  text.split('\n').forEach((line, index) => {
    const fence = /^\s*(```|~~~)/.test(line);
    if (inside || fence) fenced.add(index + 1);
    if (fence) inside = !inside;
  });
  return fenced;
};

const misspelledMarkers = (text: string, file: string, fenced: Set<number>): string[] =>
  text.split('\n').flatMap((line, index) =>
    !fenced.has(index + 1) && NEAR_MARKER.test(line) && !new RegExp(MARKER.source).test(line)
      ? [`${file}:${index + 1}: not a marker as written; spell it <!-- generated:NAME --> or <!-- /generated:NAME -->, alone on its line`]
      : [],
  );

const lineAt = (text: string, index: number): number => text.slice(0, index).split('\n').length;

/**
 * The regions of a page, in order. Throws a RegionError naming every problem (file and line): a name with no
 * generator, nested or unclosed regions, a stray closing marker, a misspelled marker (which would be skipped
 * silently, leaving its region unchecked).
 */
export function findRegions(text: string, file: string, generators: Readonly<Record<string, RegionGenerator>> = REGION_GENERATORS): Region[] {
  const fenced = fencedLines(text);
  const problems = misspelledMarkers(text, file, fenced);
  const regions: Region[] = [];
  let open: { name: string; start: number; line: number } | null = null;
  for (const match of text.matchAll(MARKER)) {
    const [marker, slash, name = ''] = match;
    const line = lineAt(text, match.index);
    if (fenced.has(line)) continue;
    const where = `${file}:${line}`;
    if (slash === '') {
      if (open) problems.push(`${where}: region "${name}" opens inside region "${open.name}" (opened on line ${open.line})`);
      if (!Object.hasOwn(generators, name)) problems.push(`${where}: unknown region "${name}" (known: ${Object.keys(generators).join(', ')})`);
      open = { name, start: match.index + marker.length + 1, line };
    } else if (open?.name !== name) {
      problems.push(`${where}: closing marker of "${name}" with no open region of that name`);
    } else {
      regions.push({ name, start: Math.min(open.start, match.index), end: match.index });
      open = null;
    }
  }
  if (open) problems.push(`${file}:${open.line}: region "${open.name}" is never closed (<!-- /generated:${open.name} -->)`);
  if (problems.length > 0) throw new RegionError(problems);
  return regions;
}

const contentOf = (region: Region, generators: Readonly<Record<string, RegionGenerator>>): string => {
  const generate = generators[region.name];
  if (!generate) throw new RegionError([`unknown region "${region.name}"`]);
  return `${generate()}\n`;
};

/** The page with every region's content replaced by its generator's output (the markers themselves are kept). */
export function fillRegions(text: string, file: string, generators: Readonly<Record<string, RegionGenerator>> = REGION_GENERATORS): string {
  let filled = '';
  let from = 0;
  for (const region of findRegions(text, file, generators)) {
    filled += text.slice(from, region.start) + contentOf(region, generators);
    from = region.end;
  }
  return filled + text.slice(from);
}

/** The names of the regions whose content differs from what their generator renders now, in page order. */
export function staleRegions(text: string, file: string, generators: Readonly<Record<string, RegionGenerator>> = REGION_GENERATORS): string[] {
  return findRegions(text, file, generators)
    .filter((region) => text.slice(region.start, region.end) !== contentOf(region, generators))
    .map((region) => region.name);
}
