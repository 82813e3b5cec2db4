// How many render threads a batch should start. A thread pays for itself only on a core
// that would otherwise sit idle: on a busy machine it takes its share from the thread that
// hands it work, and starting it (Node, fonts, satori, the atlas: some 0.5 s of CPU) is lost
// on a short batch. So the count follows the idle cores: the CPUs the process may use less
// what the rest of the machine keeps busy, measured over a short window now. Not the load
// average: it lags by a minute, so it still holds this process's own previous work (a batch
// that just ended made a quiet machine look busy to the next one), and it counts runnable
// threads, not used cores.
import { availableParallelism, cpus, loadavg } from "node:os";

/** What {@link chooseThreads} decides from. */
export interface ThreadChoice {
  /** CPUs this process may run on (`os.availableParallelism()`). */
  cores: number;
  /**
   * Cores busy on the whole machine, this process included, on average over a recent window
   * (see {@link sampleCpu} and {@link busyCores}); NaN or unknown counts as idle.
   */
  busy: number;
  /**
   * Cores this process itself kept busy over the same window (its caller's thread rendering,
   * say): they are not taken from anyone, so they count as available. Default 0.
   */
  own?: number;
  /** The caller's thread renders too: it takes one idle core itself. */
  callerThread: boolean;
  /** At most this many threads. Default 4 (a fifth adds little; see bench/README.md). */
  max?: number;
}

/**
 * Render threads for a batch: the cores the rest of the machine leaves idle (cores less
 * `busy - own`, rounded), less one for the caller's thread when it renders too, from 0 to
 * `max`. With the caller's thread rendering, 0 means it works alone (a busy machine);
 * without it, at least one thread always renders. A pure function of the measurements.
 * @example
 * const before = sampleCpu();
 * // ... 150 ms later (rendering meanwhile, or not)
 * const { busy, own } = busyCores(before, sampleCpu());
 * chooseThreads({ cores: availableParallelism(), busy, own, callerThread: true });
 */
export function chooseThreads(choice: ThreadChoice): number {
  const cores = Number.isFinite(choice.cores) ? Math.max(1, Math.floor(choice.cores)) : 1;
  const busy = Number.isFinite(choice.busy) ? Math.max(0, choice.busy) : 0;
  const own = choice.own !== undefined && Number.isFinite(choice.own) ? Math.max(0, choice.own) : 0;
  const others = Math.max(0, busy - own);
  const max = Math.max(0, Math.floor(choice.max ?? 4));
  const idle = Math.max(0, Math.round(cores - others));
  const threads = Math.min(max, idle - (choice.callerThread ? 1 : 0));
  return choice.callerThread ? Math.max(0, threads) : Math.max(1, threads);
}

/** The machine's and this process's CPU time so far, read at `atMs` (see {@link busyCores}). */
export interface CpuSample {
  /** `performance.now()` when taken. */
  atMs: number;
  /** CPU time of all CPUs but idle, in ms (`os.cpus()`); null where the platform gives none. */
  machineMs: number | null;
  /** This process's CPU time (user + system, all its threads), in ms. */
  ownMs: number;
  /** The one-minute load average, for platforms without per-CPU times. */
  load: number;
}

/** Reads the CPU counters {@link busyCores} compares; cheap (one read of /proc/stat on Linux). */
export function sampleCpu(): CpuSample {
  let machineMs: number | null = null;
  const list = cpus();
  if (list.length > 0) {
    machineMs = 0;
    for (const { times } of list) machineMs += times.user + times.nice + times.sys + times.irq;
  }
  const own = process.cpuUsage();
  return {
    atMs: performance.now(),
    machineMs,
    ownMs: (own.user + own.system) / 1000,
    load: loadavg()[0] ?? 0,
  };
}

/**
 * Cores busy between two samples: on the machine (`busy`, this process included) and by this
 * process (`own`). Without per-CPU times, `busy` is the later sample's load average (which
 * may hold this process's own earlier work).
 */
export function busyCores(before: CpuSample, after: CpuSample): { busy: number; own: number } {
  const ms = after.atMs - before.atMs;
  if (!(ms > 0)) return { busy: after.load, own: 0 };
  const own = Math.max(0, (after.ownMs - before.ownMs) / ms);
  if (before.machineMs === null || after.machineMs === null) return { busy: after.load, own: 0 };
  return { busy: Math.max(0, (after.machineMs - before.machineMs) / ms), own };
}

/** How long {@link measureThreads} watches the machine before it decides. */
export const SAMPLE_WINDOW_MS = 150;

/**
 * The threads {@link chooseThreads} picks from the machine as it is now: CPU counters read
 * `windowMs` apart (the caller may render meanwhile: its own use is subtracted).
 */
export async function measureThreads(
  callerThread: boolean,
  windowMs = SAMPLE_WINDOW_MS,
): Promise<number> {
  const before = sampleCpu();
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  const { busy, own } = busyCores(before, sampleCpu());
  return chooseThreads({ cores: availableParallelism(), busy, own, callerThread });
}
