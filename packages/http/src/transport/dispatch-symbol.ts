/**
 * Where a handler keeps its transport-neutral dispatcher: the Node adapters read it to skip
 * Fetch objects. `Symbol.for`, so a second bundle of this package (the CommonJS
 * `@tminus/http/fastify` entry beside the main one) finds the same key.
 */
export const DISPATCH = Symbol.for("tminus.dispatch");
