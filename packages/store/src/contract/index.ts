// The Store contract, split by resource; `Store` composes the parts.
export * from "./accounts";
export * from "./analytics";
export * from "./assets";
export * from "./common";
export * from "./events";
export * from "./housekeeping";
export * from "./looks";
export * from "./metering";
export * from "./store";
export * from "./timers";
export * from "./users";
export * from "./viewers";
export * from "./webhooks";
