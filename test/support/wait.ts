/** Polls `f` every 20 ms until `ok` holds of its value or `ms` pass; returns the last value either way (the caller's assertions say what was missing). */
export async function until<T>(f: () => Promise<T>, ok: (v: T) => boolean, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Whether a job (as the API or the store shows it) has ended. */
export function ended<J extends { status?: unknown } | null | undefined>(j: J): boolean {
  return !!j && ['completed', 'failed', 'cancelled'].includes(j.status as string);
}
