import type { ImageInput } from "@tminus/render";
import type { Store } from "@tminus/store";
import type { Services } from "../api/context";
import type { TminusConfig } from "../config";

/** What the dashboard needs from the handler that serves it. */
export interface DashboardDeps {
  store: Store;
  config: TminusConfig;
  services: () => Promise<Services>;
  /** Draws an image with the public routes' renderer (threads, queue). */
  renderImage(kind: "png", input: ImageInput): Promise<Uint8Array>;
  onError(error: unknown, requestId: string): void;
}
