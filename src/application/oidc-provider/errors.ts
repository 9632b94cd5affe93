import { ApplicationError } from '../errors.js';

/** No app is registered with this id (`npm run admin -- remove-client`). */
export class ClientNotFound extends ApplicationError<'CLIENT_NOT_FOUND'> {
  readonly code = 'CLIENT_NOT_FOUND';

  constructor() {
    super('Client not found', [{ field: 'id', code: 'UNKNOWN', message: 'no app is registered with this id' }]);
  }
}
