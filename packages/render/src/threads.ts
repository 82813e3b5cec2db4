// How many render threads a batch should start. A thread pays for itself only on a core
// that would otherwise sit idle: on a busy machine it takes its share from the thread that
// hands it work, and starting it (Node, fonts, satori, the atlas: some 0.4 s of CPU) is lost
// on a short batch. So the count follows the idle cores, measured as the CPUs the process may
// use (`os.availableParallelism()`) less the one-minute load average (`os.loadavg()[0]`).

/** What {@link chooseThreads} decides from. */
export interface ThreadChoice {
  /** CPUs this process may run on (`os.availableParallelism()`). */
  cores: number;
  /** Runnable threads on the machine, averaged (`os.loadavg()[0]`; 0 where unknown, as on Windows). */
  load: number;
  /** The caller's thread renders too: it takes one idle core itself. */
  callerThread: boolean;
  /** At most this many threads. Default 4 (a fifth adds little; see bench/README.md). */
  max?: number;
}

/**
 * Render threads for a batch: the idle cores (cores less the load, rounded), less one for the
 * caller's thread when it renders too, from 0 to `max`. With the caller's thread rendering, 0
 * means it works alone (a busy machine); without it, at least one thread always renders.
 * @example
 * chooseThreads({ cores: availableParallelism(), load: loadavg()[0]!, callerThread: true });
 */
export function chooseThreads(choice: ThreadChoice): number {
  const cores = Number.isFinite(choice.cores) ? Math.max(1, Math.floor(choice.cores)) : 1;
  const load = Number.isFinite(choice.load) ? Math.max(0, choice.load) : 0;
  const max = Math.max(0, Math.floor(choice.max ?? 4));
  const idle = Math.max(0, Math.round(cores - load));
  const threads = Math.min(max, idle - (choice.callerThread ? 1 : 0));
  return choice.callerThread ? Math.max(0, threads) : Math.max(1, threads);
}
