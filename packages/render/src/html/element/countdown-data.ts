// What `GET /t/{id}/countdown.json` answers (http's public/countdown-json.ts), read defensively:
// the element runs on other people's pages and must never throw on an answer it does not know.
import type {
  StatusInput,
  TimerClock,
  TimerDefinition,
  TimerStatusResult,
  TimeUnit,
  ViewerContext,
} from "@tminus/core/browser";

/** The look's fields the element draws with. */
export interface ElementLook {
  units: TimeUnit[];
  largest_unit: "days" | "hours" | "minutes";
  pad: boolean;
  /** Hide the largest units while they are zero; absent from older servers' answers. */
  hide_leading_zero_units?: boolean;
  separator: string;
  show_labels: boolean;
  locale: string;
  labels: Partial<Record<TimeUnit, string>>;
  font: "sans" | "mono" | "serif";
  /** Digit height in CSS px (8..200); the element shrinks it on narrow screens. */
  font_size: number;
  panel: "rounded" | "plain";
  /** look.style (rounded, plain, minimal, boxes, ...); absent from older servers' answers. */
  style?: string;
  transparent: boolean;
  background_color: string;
  text_color: string;
  accent_color: string;
  dark: { background_color?: string; text_color?: string; accent_color?: string } | null;
}

/** The answer, as the element uses it. */
export interface CountdownData {
  /** The server's clock when it answered (epoch ms). */
  now: number;
  status: TimerStatusResult;
  input: StatusInput;
  look: ElementLook;
  endedText: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The answer's data, or null when it is not one the element can count with. */
export function readCountdownData(json: unknown): CountdownData | null {
  if (!isObject(json) || typeof json.now !== "number") return null;
  const { timer, look, status, ended } = json;
  if (!isObject(timer) || !isObject(look) || !isObject(status) || !isObject(timer.clock))
    return null;
  if (!isObject(timer.definition) || !Array.isArray(look.units)) return null;
  const viewer = isObject(timer.viewer) ? (timer.viewer as ViewerContext) : undefined;
  return {
    now: json.now,
    status: status as unknown as TimerStatusResult,
    input: {
      definition: timer.definition as unknown as TimerDefinition,
      clock: timer.clock as unknown as TimerClock,
      ...(viewer ? { viewer } : {}),
    },
    look: look as unknown as ElementLook,
    endedText: isObject(ended) && typeof ended.text === "string" ? ended.text : "Ended",
  };
}
