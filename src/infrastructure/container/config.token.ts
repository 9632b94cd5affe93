import { token } from '../../application/ports/token.js';
import type { Config } from '../config/config.js';
import type { SigningKey } from '../security/signing-key.js';

export const CONFIG = token<Config>('Config');
export const SIGNING_KEY = token<SigningKey>('SigningKey');
