import { HistogramCell } from "./histogram";
import { histogramSamples, type Sample } from "./series";

/** Methods with their own label; anything else is counted as `OTHER` (bounded cardinality). */
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const OTHER = METHODS.length;

/**
 * At most this many route labels: the labels are route templates (a fixed table), so the cap
 * is a safety net against a caller passing raw paths, never reached by tminus itself.
 */
const MAX_ROUTES = 256;
/** The label every route past the cap shares. */
const OVERFLOW_ROUTE = "other";

/** The counters of one route and method: requests by status, and one duration histogram. */
interface MethodCell {
  byStatus: Map<number, number>;
  duration: HistogramCell;
}

/**
 * Requests by route template, method and status, and their durations. Cells are made once per
 * route and method and found by a Map lookup on the (interned) template and an array index,
 * so recording a request allocates nothing.
 */
export class RequestStats {
  private readonly routes = new Map<string, Array<MethodCell | undefined>>();

  /** Counts one answered request; `seconds` is the time from arrival to the response. */
  record(route: string, method: string, status: number, seconds: number): void {
    let methods = this.routes.get(route);
    if (methods === undefined) {
      if (this.routes.size >= MAX_ROUTES && route !== OVERFLOW_ROUTE) {
        this.record(OVERFLOW_ROUTE, method, status, seconds);
        return;
      }
      methods = [];
      this.routes.set(route, methods);
    }
    const m = methodIndex(method);
    let cell = methods[m];
    if (cell === undefined) {
      cell = { byStatus: new Map(), duration: new HistogramCell() };
      methods[m] = cell;
    }
    cell.byStatus.set(status, (cell.byStatus.get(status) ?? 0) + 1);
    cell.duration.observe(seconds);
  }

  /** `tminus_http_requests_total` samples. */
  countSamples(): Sample[] {
    const out: Sample[] = [];
    for (const [route, methods] of this.routes) {
      methods.forEach((cell, m) => {
        if (!cell) return;
        const method = METHODS[m] ?? "OTHER";
        for (const [status, value] of cell.byStatus) {
          out.push({ labels: { route, method, status: String(status) }, value });
        }
      });
    }
    return out;
  }

  /** `tminus_http_request_duration_seconds` samples (route and method; status would multiply series). */
  durationSamples(name: string): Sample[] {
    const out: Sample[] = [];
    for (const [route, methods] of this.routes) {
      methods.forEach((cell, m) => {
        if (cell)
          histogramSamples(name, { route, method: METHODS[m] ?? "OTHER" }, cell.duration, out);
      });
    }
    return out;
  }
}

function methodIndex(method: string): number {
  switch (method) {
    case "GET":
      return 0;
    case "HEAD":
      return 1;
    case "POST":
      return 2;
    case "PUT":
      return 3;
    case "PATCH":
      return 4;
    case "DELETE":
      return 5;
    case "OPTIONS":
      return 6;
    default:
      return OTHER;
  }
}
