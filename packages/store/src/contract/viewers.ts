import type { TimerRecord } from "./common";
import type { NewWebhookEvent } from "./events";

/**
 * The first view of one recipient, offered to the timer's rules that subscribe to
 * `viewer.started` or `viewer.ended` (see `recordViewerStart`).
 */
export interface ViewerStartInput {
  timer_id: string;
  /** The viewer's key on this timer, for the dedupe: `r:<recipient id>`, `p:<deadline>`. */
  viewer: string;
  /** The recipient id from the URL (`r`), or null when the viewer has none. */
  recipient: string | null;
  /**
   * The viewer's own clock (`start_at`, `deadline_at`), kept so the worker can recompute the
   * viewer's end when the timer changes. Opaque to the store.
   */
  context: Record<string, unknown>;
  /** When this viewer's countdown started (the first view, or the URL's start). */
  started_at: number;
  /**
   * When the worker should first look at this viewer's end: the end as computed now, or a
   * later recheck when there is none yet (a paused timer). Ignored unless a rule subscribes to
   * `viewer.ended`.
   */
  end_check_at: number;
  /** The `viewer.started` event, delivered to each rule that subscribes to it. */
  started: NewWebhookEvent;
  /** Viewers tracked per timer per UTC day at most; past it, a new viewer records nothing. */
  max_per_timer_day: number;
  now: number;
}

/**
 * What `recordViewerStart` did: `recorded` (the viewer is tracked; `viewer.started` queued for
 * the rules that want it), or why nothing was written.
 */
export type ViewerStartOutcome = "recorded" | "duplicate" | "no_rules" | "capped" | "not_found";

/** What the public render routes read and write: they know only a timer's id. */
export interface ViewerStore {
  /**
   * A live timer by id alone, whatever its account: the public routes know only the URL.
   * Callers must still check that it is published before showing anything.
   */
  findTimerById(id: string): Promise<TimerRecord | null>;
  /**
   * Atomic insert-or-get: the first time `viewer` (a recipient id or a browser's cookie) saw
   * the timer. Returns the stored first-view instant, `now` on the first call.
   */
  recordFirstView(input: { timer_id: string; viewer: string; now: number }): Promise<number>;
  /**
   * Atomic: when the live timer has a rule subscribing to `viewer.started` or `viewer.ended`,
   * records the viewer once per (timer, viewer) while the timer has tracked fewer than
   * `max_per_timer_day` viewers this UTC day, queues `viewer.started` for each rule that
   * subscribes to it (to its destination, while live and enabled), and schedules the viewer's
   * end check when a rule subscribes to `viewer.ended`. Writes nothing otherwise.
   */
  recordViewerStart(input: ViewerStartInput): Promise<ViewerStartOutcome>;
}
