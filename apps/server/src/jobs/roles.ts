/**
 * Which process role runs which job, decided by the job's name so there is one rule to read and nothing to keep in
 * step: `publish.*` is browser work (publishing a note, engagement sync, QR logins, session checks) and runs where
 * the `publisher` role runs, the only role that starts Chromium; every other job (writing tasks and their recovery
 * sweep, knowledge parse and re-embed, hot topic refresh, notices, order expiry) runs where `worker` runs. A `web`
 * process only enqueues. A queue built with the process's roles refuses to register a job of another role, so a
 * module that forgets its role check fails at start-up instead of quietly running work in the wrong process.
 */
export type JobRole = 'worker' | 'publisher';

export function jobRole(name: string): JobRole {
  return name.startsWith('publish.') ? 'publisher' : 'worker';
}

/** The error a queue throws when a process registers work its roles do not run (a wiring bug). */
export function checkJobRole(name: string, roles: ReadonlySet<string> | undefined): void {
  if (!roles) return;
  const role = jobRole(name);
  if (!roles.has(role)) throw new Error(`job ${name} belongs to the ${role} role; this process runs ROLES=${[...roles].join(',')}`);
}
