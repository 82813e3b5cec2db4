import type { TimerRecord } from "./common";

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
}
