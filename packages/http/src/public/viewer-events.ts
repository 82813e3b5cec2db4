import { timerData, type ViewerContext } from "@tminus/core";
import type { Store, TimerRecord } from "@tminus/store";
import { VIEWER_RECHECK_MS, viewerEndAt, viewerEvent } from "@tminus/webhooks";
import { createFingerprintTable } from "../fingerprint-table";

/** (timer, viewer) pairs remembered as offered to the store; cleared when full. */
const SEEN_MAX = 50_000;

/** What a public view tells about a recipient, for `viewer.started` / `viewer.ended`. */
export interface ObservedViewer {
  timer: TimerRecord;
  /** The resolved viewer clock (a duration timer's first view, a personalized URL's values). */
  viewer: ViewerContext | undefined;
  /** The URL's recipient id `r`, when valid. */
  recipient: string | null;
  now: number;
  baseUrl: string;
}

/** Offers first views of recipients to the store's per-recipient events, behind the response. */
export interface ViewerEvents {
  observe(view: ObservedViewer): void;
  /** Resolves when every offer made so far has been answered (shutdown). */
  close(): Promise<void>;
  /** (timer, recipient) pairs remembered as offered now, for the metrics. */
  readonly size: number;
  /** Bytes that memory takes, fixed at creation (for the metrics). */
  readonly bytes: number;
}

/**
 * Per-recipient events on the public routes. A duration timer's recipient (`r`) counts on the
 * view that recorded its first view; a personalized timer's recipient is its `r`, or else its
 * deadline. Each new (timer, recipient) in this process is offered once to
 * `store.recordViewerStart`, which writes only when a rule subscribes, dedupes across
 * processes and applies the per-timer daily cap. Offers run after the response is built and
 * never fail a view.
 */
export function createViewerEvents(
  store: Pick<Store, "recordViewerStart">,
  maxPerTimerDay: number,
  onError: (error: unknown, requestId: string) => void,
  maxSeen = SEEN_MAX,
): ViewerEvents {
  // Fingerprints, not strings: a fixed 8 bytes per slot whatever the keys (fingerprint-table.ts).
  const seen = createFingerprintTable(maxSeen);
  const pending = new Set<Promise<unknown>>();

  return {
    get size() {
      return seen.size;
    },
    bytes: seen.bytes,
    observe({ timer, viewer, recipient, now, baseUrl }) {
      if (maxPerTimerDay === 0 || viewer === undefined) return;
      const { definition } = timerData(timer);
      let key: string;
      let startedAt: number;
      if (definition.type === "duration") {
        // Only the view that stored the first view starts the recipient's countdown.
        if (recipient === null || viewer.start_at !== now) return;
        key = `r:${recipient}`;
        startedAt = now;
      } else if (definition.type === "personalized") {
        key = recipient !== null ? `r:${recipient}` : `p:${viewer.deadline_at ?? viewer.start_at}`;
        startedAt = viewer.start_at ?? now;
      } else return;
      const memo = `${timer.id}|${key}`;
      if (seen.has(memo)) return;
      // Past `maxSeen` a new pair starts the table over.
      seen.set(memo);
      const endsAt = viewerEndAt(timer, viewer, now);
      const offer = store
        .recordViewerStart({
          timer_id: timer.id,
          viewer: key,
          recipient,
          context: { ...viewer },
          started_at: startedAt,
          end_check_at: endsAt ?? now + VIEWER_RECHECK_MS,
          started: viewerEvent("viewer.started", now, baseUrl, {
            recipient_id: recipient,
            started_at: startedAt,
            ends_at: endsAt,
          }),
          max_per_timer_day: maxPerTimerDay,
          now,
        })
        .catch((error: unknown) => {
          // Not recorded: a later view may offer it again.
          seen.delete(memo);
          onError(error, "viewer-events");
        });
      pending.add(offer);
      void offer.finally(() => pending.delete(offer));
    },
    async close() {
      await Promise.all([...pending]);
    },
  };
}
