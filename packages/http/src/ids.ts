const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string is a UUID (any version, either case): every id in a path or filter is. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
