import type { MountHost } from "@tminus/http";
import type { DashboardAdmin } from "./admin";

/**
 * What the dashboard's pages get besides the API's operations: the config, the image
 * renderer, the fault reporter and the admin seam. Never the store.
 */
export interface DashboardDeps
  extends Pick<MountHost, "config" | "renderImage" | "lookFont" | "onError"> {
  admin: DashboardAdmin;
}
