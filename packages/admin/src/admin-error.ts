/** Expected failures of admin operations (unknown account, key limit reached, last owner...). */
export class AdminError extends Error {
  readonly code: "not_found" | "limit_reached" | "invalid" | "conflict";
  constructor(code: AdminError["code"], message: string) {
    super(message);
    this.name = "AdminError";
    this.code = code;
  }
}
