/** A billing cycle: the calendar month in UTC (decisions.md). */
export interface BillingCycle {
  /** Like `2026-11`. */
  id: string;
  starts_at: number;
  resets_at: number;
}

/** The billing cycle containing `now`. */
export function cycleAt(now: number): BillingCycle {
  const d = new Date(now);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth();
  return {
    id: `${year}-${String(month + 1).padStart(2, "0")}`,
    starts_at: Date.UTC(year, month, 1),
    resets_at: Date.UTC(year, month + 1, 1),
  };
}
