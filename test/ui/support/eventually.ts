/** Retries an assertion until it passes or the time is up (UI updates arrive asynchronously). */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 10_000, everyMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw last;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
