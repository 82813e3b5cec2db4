import { expect } from "vitest";
import { ApiError } from "../../src/errors";

/** The `ApiError` that `run` throws; fails the test when it throws anything else or nothing. */
export function errorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error("expected an ApiError");
}
