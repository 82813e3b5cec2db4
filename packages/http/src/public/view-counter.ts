import { createHmac, randomBytes } from "node:crypto";
import type {
  CampaignCount,
  ClickState,
  ClientFamily,
  RenderClickCount,
  RenderKind,
  RenderViewCount,
  RenderViewerMark,
  RequestSource,
  Store,
  TimerRecord,
} from "@tminus/store";
import { createBatchWriter } from "../batch-writer";
import { createFingerprintTable } from "../fingerprint-table";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Distinct entries (counts and viewers) that make a batch write at once. */
const BATCH_MAX = 1000;
/** Viewer marks remembered as written, so a repeat viewer costs no write; cleared when full. */
const WRITTEN_MAX = 100_000;

/** One public view to count. */
export interface CountedView {
  timer: Pick<TimerRecord, "id" | "account_id" | "environment">;
  kind: RenderKind;
  client: ClientFamily;
  /** Who fetched it: a human open, an image proxy or a privacy prefetch (request-source.ts). */
  source: RequestSource;
  /**
   * Who looked, before hashing: `r:<recipient id>`, or `a:<address>|<user agent>`. Held in
   * memory until the batch is written (about 100 ms), then only its day-salted hash is kept.
   */
  viewer: string;
  now: number;
  /** The send's label (`c` or `utm_campaign`, campaign-label.ts); null: none. */
  campaign?: string | null;
}

/** One click on a timer's link (`/t/{id}/go`) to count. */
export interface CountedClick {
  timer: Pick<TimerRecord, "id" | "account_id" | "environment">;
  /** The timer's state for this reader at the click. */
  state: ClickState;
  /** Who clicked, by the views' User-Agent rules (request-source.ts). */
  source: RequestSource;
  campaign: string | null;
  now: number;
}

/** A viewer's hours of one day, and those of them a human open saw, before hashing. */
type Mark = CountedView & { day: number; hours: number; human_hours: number };

/** Bitwise OR of two sets of up to 48 bits (JavaScript's `|` keeps only 32). */
function or(a: number, b: number): number {
  const high = 2 ** 24;
  return (Math.floor(a / high) | Math.floor(b / high)) * high + ((a % high) | (b % high));
}

/** Counts public views in memory and writes them behind, in batches. */
export interface ViewCounter {
  /** One more view. Cheap: a few map operations, no I/O. */
  count(view: CountedView): void;
  /** One more click, written with the views. Cheap: a map operation or two, no I/O. */
  click(click: CountedClick): void;
  /** Resolves once every view counted before the call is in the store (or its write failed). */
  flush(): Promise<void>;
  /**
   * Entries held now, for the metrics: counted and not yet written, and viewers remembered as
   * written, with the bytes of the latter (fixed at creation).
   */
  sizes(): { pending: number; written: number; writtenBytes: number };
}

/**
 * The view counter of the public routes. Views are added up in memory per (timer, hour,
 * kind, client, source) and viewers per (timer, day, viewer), with the hours a human open saw
 * them apart, clicks per (timer, hour, state, source) and labelled sends per (timer, day,
 * source, label), and written every `intervalMs` or every
 * 1000 distinct entries, whichever comes first: one store write per batch, never on the
 * request's path. The analytics routes and shutdown flush first. A process killed with SIGKILL
 * loses at most its last batch of counts (reported numbers only).
 *
 * Viewers are hashed at write time with the UTC day's salt (HMAC-SHA256, from the store, one
 * for all processes): the raw recipient id, address and user agent never reach the store,
 * and once housekeeping drops a day's salt its hashes cannot be linked to anyone.
 */
export function createViewCounter(
  store: Pick<Store, "recordRenderViews" | "analyticsSalt">,
  onError: (error: unknown, requestId: string) => void,
  intervalMs = 100,
  maxWritten = WRITTEN_MAX,
): ViewCounter {
  let counts = new Map<string, RenderViewCount>();
  let marks = new Map<string, Mark>();
  let clicks = new Map<string, RenderClickCount>();
  let campaigns = new Map<string, CampaignCount>();
  // Fingerprints, not strings: a fixed 16 bytes per slot whatever the keys (fingerprint-table.ts).
  const written = createFingerprintTable(maxWritten, { withValues: true });
  const salts = new Map<number, Promise<string>>();

  const saltOf = (day: number): Promise<string> => {
    let salt = salts.get(day);
    if (!salt) {
      // Yesterday's salt still serves a batch written just after midnight; older ones go.
      for (const known of salts.keys()) if (known < day - DAY_MS) salts.delete(known);
      salt = store.analyticsSalt(day, () => randomBytes(32).toString("base64url"));
      salts.set(day, salt);
      salt.catch(() => salts.delete(day));
    }
    return salt;
  };

  /** The campaign row of a labelled view or click, created at zero. */
  const campaignOf = (
    timer: CountedView["timer"],
    campaign: string,
    source: RequestSource,
    now: number,
  ) => {
    const day = now - (now % DAY_MS);
    const key = `${timer.id}|${day}|${source}|${campaign}`;
    let row = campaigns.get(key);
    if (!row) {
      row = {
        account_id: timer.account_id,
        environment: timer.environment,
        timer_id: timer.id,
        day,
        campaign,
        source,
        views: 0,
        clicks: 0,
      };
      campaigns.set(key, row);
    }
    return row;
  };

  const pending = () => counts.size + marks.size + clicks.size + campaigns.size;

  const send = async (
    batchCounts: RenderViewCount[],
    batchMarks: Mark[],
    batchClicks: RenderClickCount[],
    batchCampaigns: CampaignCount[],
  ) => {
    const viewers: RenderViewerMark[] = [];
    const remember: [string, number][] = [];
    // One lookup per day in the batch (usually one), not one await per viewer.
    const daySalts = new Map<number, string>();
    for (const m of batchMarks) {
      if (!daySalts.has(m.day)) daySalts.set(m.day, await saltOf(m.day));
    }
    for (const m of batchMarks) {
      const hash = createHmac("sha256", daySalts.get(m.day)!)
        .update(m.viewer)
        .digest("base64url")
        .slice(0, 22);
      const key = `${m.timer.id}|${m.day}|${hash}`;
      // Hours in the low 24 bits, human hours above them: one number to remember.
      const seen = m.hours + m.human_hours * 2 ** 24;
      const before = written.get(key) ?? 0;
      if (or(before, seen) === before) continue;
      remember.push([key, or(before, seen)]);
      viewers.push({
        account_id: m.timer.account_id,
        environment: m.timer.environment,
        timer_id: m.timer.id,
        day: m.day,
        viewer: hash,
        hours: m.hours,
        human_hours: m.human_hours,
      });
    }
    await store.recordRenderViews({
      counts: batchCounts,
      viewers,
      ...(batchClicks.length > 0 ? { clicks: batchClicks } : {}),
      ...(batchCampaigns.length > 0 ? { campaigns: batchCampaigns } : {}),
    });
    // Past `maxWritten` a new key starts the table over.
    for (const [key, hours] of remember) written.set(key, hours);
  };

  const batches = createBatchWriter(() => {
    if (pending() === 0) return null;
    const batch: Parameters<typeof send> = [
      [...counts.values()],
      [...marks.values()],
      [...clicks.values()],
      [...campaigns.values()],
    ];
    counts = new Map();
    marks = new Map();
    clicks = new Map();
    campaigns = new Map();
    return send(...batch).catch((error: unknown) => onError(error, "analytics"));
  }, intervalMs);

  return {
    count(view) {
      const { timer, kind, client, source, now } = view;
      const hour = now - (now % HOUR_MS);
      const countKey = `${timer.id}|${hour}|${kind}|${client}|${source}`;
      const seen = counts.get(countKey);
      if (seen) seen.views++;
      else {
        counts.set(countKey, {
          account_id: timer.account_id,
          environment: timer.environment,
          timer_id: timer.id,
          hour,
          kind,
          client,
          source,
          views: 1,
        });
      }
      const day = now - (now % DAY_MS);
      const bit = 1 << ((hour - day) / HOUR_MS);
      const markKey = `${timer.id}|${day}|${view.viewer}`;
      const human = source === "human" ? bit : 0;
      const mark = marks.get(markKey);
      if (mark) {
        mark.hours |= bit;
        mark.human_hours |= human;
      } else marks.set(markKey, { ...view, day, hours: bit, human_hours: human });
      if (view.campaign) campaignOf(timer, view.campaign, source, now).views++;
      batches.added(pending() >= BATCH_MAX);
    },
    click({ timer, state, source, campaign, now }) {
      const hour = now - (now % HOUR_MS);
      const key = `${timer.id}|${hour}|${state}|${source}`;
      const seen = clicks.get(key);
      if (seen) seen.clicks++;
      else {
        clicks.set(key, {
          account_id: timer.account_id,
          environment: timer.environment,
          timer_id: timer.id,
          hour,
          state,
          source,
          clicks: 1,
        });
      }
      if (campaign) campaignOf(timer, campaign, source, now).clicks++;
      batches.added(pending() >= BATCH_MAX);
    },
    flush: batches.flush,
    sizes: () => ({
      pending: pending(),
      written: written.size,
      writtenBytes: written.bytes,
    }),
  };
}

/**
 * The viewer identity of a public request: the URL's recipient id when it has one, otherwise
 * the client's address and user agent (hashed later with the day's salt, never stored).
 * `trustProxy`: the address is the first `Forwarded: for=` or `X-Forwarded-For` entry.
 */
export function viewerIdentity(
  recipient: string | null,
  address: string | null,
  userAgent: string | null,
): string {
  if (recipient !== null) return `r:${recipient}`;
  return `a:${address ?? ""}|${userAgent ?? ""}`;
}
