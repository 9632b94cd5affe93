/**
 * The Content-Security-Policy with extra sources appended to one directive (created when absent), each once.
 * Used on the /docs routes only, to allow the hashes of Swagger UI's inline scripts under helmet's policy.
 */
export function withSources(policy: string, directive: string, sources: readonly string[]): string {
  const directives = policy
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const index = directives.findIndex((part) => part.split(/\s+/)[0]?.toLowerCase() === directive);
  const current = index === -1 ? [directive] : (directives[index] as string).split(/\s+/);
  const merged = [...current, ...sources.filter((source) => !current.includes(source))].join(' ');
  if (index === -1) directives.push(merged);
  else directives[index] = merged;
  return directives.join(';');
}
