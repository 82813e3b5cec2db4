import { blockedHost } from "@tminus/webhooks";
import type { WebhookConfig } from "../config";
import { validationError } from "../errors";
import { URL_NOT_HTTPS, URL_PRIVATE } from "../vocabulary/error-cases";

/**
 * Checks a destination URL against the operator's policy and returns it normalised (WHATWG
 * serialisation). What can be known without DNS is refused here, with a message; names that
 * resolve to refused addresses are caught at every attempt (resolve.ts), since DNS can change.
 */
export function checkDestinationUrl(raw: string, settings: WebhookConfig): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw validationError("url", "url must be an absolute URL, like https://api.example.com/hooks");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && settings.allow_http)) {
    throw settings.allow_http
      ? validationError("url", "url must use https or http")
      : URL_NOT_HTTPS.error();
  }
  if (url.username || url.password) {
    throw validationError(
      "url",
      "url must not contain credentials; authenticate with the signature",
    );
  }
  if (url.hash) throw validationError("url", "url must not contain a fragment (#...)");
  if (!settings.allow_private_destinations) {
    // Trailing dots, brackets and case are normalised first (`https://localhost./`).
    const reason = blockedHost(url.hostname);
    if (reason) throw URL_PRIVATE.error(reason.replace("_", "-"));
  }
  return url.href;
}
