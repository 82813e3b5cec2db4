export {
  type Admin,
  AdminError,
  type AdminOptions,
  type ApiKeyView,
  createAdmin,
  type DashboardUserView,
  type IssuedApiKey,
  type PasswordLink,
  ROLL_DEFAULT_MS,
  ROLL_MAX_MS,
  type RolledApiKey,
} from "./admin";
export { type AdminConfig, limitsFor, type PlanLimits } from "./admin-config";
export {
  digestsEqual,
  displayPrefix,
  environmentOfKey,
  type GeneratedKey,
  generateApiKey,
  hashApiKey,
  hasValidChecksum,
  KEY_PREFIX,
} from "./api-key-format";
export { hasScope, parseScopes, SCOPES, type Scope } from "./scopes";
export { randomToken, sha256Hex } from "./tokens";
