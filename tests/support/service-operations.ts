import type { ServiceCapability } from '../../src/main.js';
import { CAPABILITIES } from '../../src/capabilities/index.js';
import { OPERATIONS } from '../../src/interfaces/http/operations/index.js';
import type { AnyOperation } from '../../src/interfaces/http/shared/operation.js';

/** Every HTTP operation the service registers: the core's list and its capabilities' (as main.ts gives them to the server). */
export const SERVICE_OPERATIONS: readonly AnyOperation[] = [...OPERATIONS, ...(CAPABILITIES as readonly ServiceCapability[]).flatMap((capability) => capability.operations ?? [])];
