/** A table cell: a pipe would end the cell and a newline the row, so the one is escaped and the other folded. */
export const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** Inline code, with a longer fence when the value itself holds backticks (as CommonMark allows). */
export const code = (text: string): string => {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return longest === 0 ? `${fence}${text}${fence}` : `${fence} ${text} ${fence}`;
};

const row = (cells: readonly string[]): string => `| ${cells.map(cell).join(' | ')} |`;

/** A GitHub-flavoured markdown table in the README's style; every cell is escaped, so callers pass markdown text. */
export const table = (headers: readonly string[], rows: readonly (readonly string[])[]): string =>
  [row(headers), `|${headers.map(() => '---').join('|')}|`, ...rows.map(row)].join('\n');
