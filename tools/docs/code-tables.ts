import { FIELD_ISSUE_CODES } from '../../src/domain/domain-error.js';
import { ACTIVITY_REASONS, activityTypesWith } from '../../src/interfaces/http/shared/activity-types.js';
import { AUTH_OUTCOMES, ERROR_TABLE, type ErrorRow } from '../../src/interfaces/http/shared/error-table.js';
import { code, table } from './markdown.js';
import { OPERATIONS } from '../../src/interfaces/http/operations/index.js';
import { CAPABILITIES } from '../../src/capabilities/index.js';
import { activityTypesOf } from '../../src/application/ports/event-declarations.js';

type Rows = Readonly<Record<string, ErrorRow>>;

/** Every code a client can get: the core's table and the rows the operations declare as their own (`ownErrors`). */
const ALL_ROWS: Rows = Object.assign(
  {},
  ERROR_TABLE,
  ...[...OPERATIONS, ...CAPABILITIES.flatMap((capability): readonly { readonly ownErrors?: Rows }[] => ('operations' in capability ? (capability.operations as readonly { readonly ownErrors?: Rows }[]) : []))].map((operation) => operation.ownErrors ?? {}),
) as Rows;

/** The error table's rows by status (stable: rows of one status keep the table's order). */
const byStatus = (rows: Rows): [string, ErrorRow][] => Object.entries(rows).sort(([, a], [, b]) => a.status - b.status);

/** code | status | message, one row per error code of ERROR_TABLE and of the operations' own rows: what a client can get in `code`. */
export function renderErrorCodes(rows: Rows = ALL_ROWS): string {
  return table(
    ['code', 'status', 'message'],
    byStatus(rows).map(([errorCode, row]) => [code(errorCode), String(row.status), row.message]),
  );
}

/** Every code an entry of `errors` may carry, with what it means. */
export function renderFieldIssueCodes(): string {
  return table(['code', 'the field is'], Object.entries(FIELD_ISSUE_CODES).map(([fieldCode, meaning]) => [code(fieldCode), meaning]));
}

/** The `type` and `reason` values GET /auth/me/activity can answer, as the OpenAPI enums list them. */
export function renderActivityTypes(types: readonly string[] = activityTypesWith(CAPABILITIES.flatMap((capability) => activityTypesOf(capability.events))), reasons: readonly string[] = ACTIVITY_REASONS): string {
  const list = (values: readonly string[]) => values.map(code).join(', ');
  return [`- \`type\`: ${list(types)}`, `- \`reason\` (of failed sign-ins and ended sessions): ${list(reasons)}`].join('\n');
}

/**
 * outcome | answers: every `outcome` label of `account_sign_up_total` and `account_sign_in_total` (AUTH_OUTCOMES,
 * what the metrics declare at 0 from start) with the status and error codes that produce it (see authOutcomeOf).
 */
export function renderMetricOutcomes(outcomes: readonly string[] = AUTH_OUTCOMES, rows: Rows = ALL_ROWS): string {
  const answers = (outcome: string): string => {
    if (outcome === 'success') return 'any answer below 400';
    const causes = byStatus(rows)
      .filter(([, row]) => row.outcome === outcome)
      .map(([errorCode, row]) => `${row.status} ${code(errorCode)}`);
    return [...causes, ...(outcome === 'error' ? ['any other answer of 400 or more'] : [])].join(', ');
  };
  return table(['outcome', 'answers'], outcomes.map((outcome) => [code(outcome), answers(outcome)]));
}
