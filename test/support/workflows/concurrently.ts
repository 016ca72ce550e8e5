/**
 * The dev server runs in real time, so most workflow tests spend their time
 * waiting (for a timer, or for a round trip to the server). Tests declared
 * with `concurrently` all start together before the first of them and each
 * still reports on its own: its own worker, fakes, assertions and failure.
 * Only for tests that race no clock (their windows are minutes long, or they
 * wait for a timer to pass rather than act before it does).
 */
type Body = () => Promise<void>;

export function concurrently(title: string, define: (test: (title: string, body: Body) => void) => void): void {
  describe(title, () => {
    const tests: { title: string; body: Body }[] = [];
    define((testTitle, body) => tests.push({ title: testTitle, body }));
    const running: Promise<void>[] = [];
    before(() => {
      for (const { body } of tests) {
        const run = body();
        run.catch(() => undefined); // reported by its own test below
        running.push(run);
      }
    });
    tests.forEach(({ title: testTitle }, index) => it(testTitle, () => running[index]));
  });
}
