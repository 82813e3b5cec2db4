import type {
  Account,
  ApiKeyRecord,
  AssetRecord,
  Environment,
  Store,
  StoreGenerations,
  TimerRecord,
} from "@tminus/store";

/** A key found by its hash, with its account, as authentication needs it. */
export interface FoundKey {
  key: ApiKeyRecord;
  account: Account;
}

/** The reads every request makes, served from memory while the store says nothing changed. */
export interface ReadCache {
  /**
   * `store.findApiKeyByHash`, cached. On a miss, `mayExist` is asked before the store: false
   * answers null at once (a key that fails its checksum is never in the store).
   */
  findKey(hash: string, mayExist?: () => boolean): Promise<FoundKey | null>;
  /** `store.getTimer`, cached: null for another account's or environment's timer. */
  getTimer(account_id: string, environment: Environment, id: string): Promise<TimerRecord | null>;
  /** `store.findTimerById` (public routes), cached. */
  findTimerById(id: string): Promise<TimerRecord | null>;
  /** `store.getAsset` (public routes: a look's uploaded font), cached until one is deleted. */
  findAsset(account_id: string, environment: Environment, id: string): Promise<AssetRecord | null>;
  /** After this process changed a timer: the cache holds the row as written (or forgets it). */
  timerChanged(timer: TimerRecord, deleted: boolean): void;
  /** Entries held now, for the metrics. */
  sizes(): { keys: number; timers: number; assets: number };
}

/** Sizes of the caches (entries). */
export interface ReadCacheOptions {
  maxKeys?: number;
  maxTimers?: number;
}

/**
 * In-process caches of API keys (with their accounts) and timers, kept exact across processes
 * by the store's generations: a revocation, roll, suspension or plan change moves `auth`, any
 * timer change moves `timers`, each in the transaction of the change. The generations are
 * read at most once per event-loop turn (all requests that arrive together share one read),
 * and a moved generation empties its cache. So a change committed by any process before a
 * request's turn began is seen by that request; misses (unknown keys, deleted timers) are never
 * cached and always ask the store.
 */
export function createReadCache(store: Store, options: ReadCacheOptions = {}): ReadCache {
  const maxKeys = options.maxKeys ?? 10_000;
  const maxTimers = options.maxTimers ?? 10_000;
  const keys = new Map<string, FoundKey>();
  const timers = new Map<string, TimerRecord>();
  // Files never change, only go: their descriptions stay until any file is deleted.
  const assets = new Map<string, AssetRecord>();
  let known: StoreGenerations | null = null;
  let turn: Promise<void> | null = null;

  // One generation read per turn of the event loop, shared by every request of that turn.
  const fresh = (): Promise<void> => {
    if (turn) return turn;
    turn = store.readGenerations().then((now) => {
      if (!known || now.auth !== known.auth) keys.clear();
      if (!known || now.timers !== known.timers) timers.clear();
      if (!known || now.assets !== known.assets) assets.clear();
      known = now;
    });
    const done = turn;
    setImmediate(() => {
      if (turn === done) turn = null;
    });
    return done;
  };

  const remember = <V>(map: Map<string, V>, max: number, key: string, value: V) => {
    // A full cache starts over: simpler than LRU bookkeeping, and refilling is one read each.
    if (map.size >= max) map.clear();
    map.set(key, value);
  };

  const loadTimer = async (id: string): Promise<TimerRecord | null> => {
    await fresh();
    const hit = timers.get(id);
    if (hit) return hit;
    const generation = known;
    const row = await store.findTimerById(id);
    // Only a row read under the generation still current may be kept.
    if (row && known === generation) remember(timers, maxTimers, id, row);
    return row;
  };

  return {
    async findKey(hash, mayExist) {
      await fresh();
      const hit = keys.get(hash);
      if (hit) return hit;
      if (mayExist && !mayExist()) return null;
      const generation = known;
      const found = await store.findApiKeyByHash(hash);
      if (found && known === generation) remember(keys, maxKeys, hash, found);
      return found;
    },
    async getTimer(account_id, environment, id) {
      const timer = await loadTimer(id);
      // A timer of another account or environment does not exist from this key's view.
      if (!timer || timer.account_id !== account_id || timer.environment !== environment) {
        return null;
      }
      return timer;
    },
    findTimerById: loadTimer,
    async findAsset(account_id, environment, id) {
      await fresh();
      const key = `${account_id}|${environment}|${id}`;
      const hit = assets.get(key);
      if (hit) return hit;
      const generation = known;
      const row = await store.getAsset(account_id, environment, id);
      if (row && known === generation) remember(assets, maxTimers, key, row);
      return row;
    },
    sizes: () => ({ keys: keys.size, timers: timers.size, assets: assets.size }),
    timerChanged(timer, deleted) {
      if (deleted) timers.delete(timer.id);
      else if (timers.has(timer.id)) timers.set(timer.id, timer);
    },
  };
}
