import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every regular file under a directory, recursively. */
export const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
