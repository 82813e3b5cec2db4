import { type TimerDefinition, validateTimerCreate } from "@tminus/core";

/** A timer definition from a POST /timers body the test knows is valid (throws otherwise). */
export function define(body: unknown): TimerDefinition {
  const result = validateTimerCreate(body);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}
