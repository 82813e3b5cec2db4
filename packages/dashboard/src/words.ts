// Words the dashboard's pages share: counts with the right plural, type names as the builder
// says them.

/** "1 attempt", "3 attempts": a count with its noun, regular English plural. */
export function plural(n: number, noun: string, many = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : many}`;
}

/** The builder's name of each timer type ("duration" is "Evergreen" to a marketer). */
export const TYPE_NAMES: Readonly<Record<string, string>> = {
  fixed: "Fixed deadline",
  duration: "Evergreen",
  recurring: "Recurring",
  personalized: "Personalized",
};

/** A timer type as the builder names it. */
export function typeName(type: string): string {
  return TYPE_NAMES[type] ?? type;
}
