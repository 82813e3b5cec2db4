/**
 * A job that runs a pass on a timer in the background: the delivery worker here, and the
 * retention purge of `@tminus/http` (`createHousekeepingJob`).
 */
export interface PeriodicJob {
  /** Runs a pass now, then one every interval; idempotent. */
  start(): void;
  /** Stops the timer and waits for the work in flight. */
  stop(): Promise<void>;
  /** One pass, awaited (failures reach the job's `onError`, never the caller). */
  runOnce(): Promise<void>;
}

/** A pass that runs one at a time (`oneAtATime`). */
export interface SerialPass {
  /** Starts a pass, or joins the one running; resolves when it ends. */
  run(): Promise<void>;
  /** Resolves when the pass running now (if any) ends; starts none. */
  settled(): Promise<void>;
}

/**
 * `pass` run one at a time: a call while a pass is running joins it instead of stacking
 * another on (a slow store never piles passes up). A failure goes to `onError`, and the
 * pass's promise still resolves.
 */
export function oneAtATime(
  pass: () => Promise<unknown>,
  onError: (error: unknown) => void,
): SerialPass {
  let running: Promise<void> | null = null;
  return {
    run() {
      running ??= pass()
        .then(() => undefined, onError)
        .finally(() => {
          running = null;
        });
      return running;
    },
    async settled() {
      await running;
    },
  };
}
