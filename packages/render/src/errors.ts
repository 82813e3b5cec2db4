/**
 * What went wrong: bad input (`field` names it); a renderer failure that is a bug;
 * a render pool whose bounded queue is full (answer 503 with Retry-After); a
 * render pool that was closed; a pool's job taken back by its caller's signal.
 */
export type RenderErrorCode =
  | "validation_error"
  | "render_failed"
  | "queue_full"
  | "pool_closed"
  | "cancelled";

/**
 * The one error the render functions throw on purpose. `field` names the option
 * at fault ("width", "look.text_color") so a caller can map it to a 400 answer.
 * @example
 * try { await renderGif({ remainingSeconds: 90, width: 5000 }); }
 * catch (err) { if (err instanceof RenderError) console.log(err.code, err.field); }
 */
export class RenderError extends Error {
  override readonly name = "RenderError";
  readonly code: RenderErrorCode;
  readonly field: string | undefined;
  /** queue_full: seconds after which trying again is reasonable (a Retry-After value). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: RenderErrorCode,
    message: string,
    field?: string,
    options: { retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.code = code;
    this.field = field;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** Shorthand for a validation failure of one field. */
export function invalid(field: string, rule: string): RenderError {
  return new RenderError("validation_error", `${field} ${rule}`, field);
}
