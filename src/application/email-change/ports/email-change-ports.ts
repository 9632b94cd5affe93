import type { Ports } from '../../ports/ports.js';
import type { EmailChangeRepository } from './email-change-repository.port.js';

/** What the change of address's use cases read: the core's ports and its own (the pending and revertible changes). */
export interface EmailChangePorts extends Ports {
  readonly emailChanges: EmailChangeRepository;
}
