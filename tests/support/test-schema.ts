import { CAPABILITIES } from '../../src/capabilities/index.js';
import { schemaOf } from '../../src/infrastructure/storage/ownership.js';

/** The tables the contract suites' stores hold: the core's and every capability's, as the service composes them. */
export const TEST_SCHEMA = schemaOf(CAPABILITIES);
