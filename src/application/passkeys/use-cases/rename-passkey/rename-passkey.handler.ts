import { parsePasskeyName } from '../../../../domain/passkeys/passkey.js';
import { requireAll } from '../../../../domain/validation.js';
import { PasskeyNotFound } from '../../errors.js';
import type { PasskeysPorts } from '../../ports/passkeys-ports.js';
import { type PasskeyResource, toPasskeyResource } from '../../policies/passkeys.js';
import { CHANGED, untilCommitted } from '../../../shared/optimistic.js';
import type { Principal } from '../../../shared/principal.js';

export interface RenamePasskeyCommand {
  readonly principal: Principal;
  readonly id: string;
  readonly name: unknown;
}

/** Renames one of the caller's passkeys (compare-and-swap); another account's passkey is not found. */
export class RenamePasskeyHandler {
  constructor(private readonly deps: Pick<PasskeysPorts, 'passkeys'>) {}

  async execute(command: RenamePasskeyCommand): Promise<PasskeyResource> {
    const { name } = requireAll({ name: parsePasskeyName(command.name, null) });
    return untilCommitted(async () => {
      const passkey = await this.deps.passkeys.find(command.id);
      if (!passkey || passkey.userId !== command.principal.userId) throw new PasskeyNotFound();
      passkey.rename(name);
      return (await this.deps.passkeys.save(passkey, [])) ? toPasskeyResource(passkey) : CHANGED;
    });
  }
}
