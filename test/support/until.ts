/** Polls `probe` every 100 ms until it answers something other than undefined; fails after `seconds`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  seconds = 60,
): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${seconds} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
