import type { JsonSchema } from './yup-json-schema.js';

/** What the browser's ceremony answered, as JSON (`credential.toJSON()`): documented, checked by the use case. */
export const webAuthnResponseDocs: JsonSchema = {
  type: 'object',
  additionalProperties: true,
  description: 'What navigator.credentials answered, as JSON (credential.toJSON()): id, rawId, type, response, clientExtensionResults',
};
