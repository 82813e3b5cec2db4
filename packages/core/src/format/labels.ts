import type { TimeUnit } from "../time/units";
import { LANGUAGE_ALIASES, UNIT_WORDS, type UnitWords } from "./_unit-words";

/** Words that replace the built-in label of a unit, for every count. */
export type UnitLabelOverrides = Partial<Record<TimeUnit, string>>;

interface ResolvedWords {
  words: UnitWords;
  rules: Intl.PluralRules;
}

// Locale resolution and PluralRules construction cost far more than select();
// labels are asked for once per unit per rendered frame.
const cache = new Map<string, ResolvedWords>();

/**
 * The word for `value` of `unit` in `locale`, in the plural form that language
 * uses after that numeral ("1 dzień", "2 dni", "5 dni"). Unknown locales fall
 * back to their base language, then to English; an override replaces the word.
 * @example unitLabel("days", 5, "ru") // "дней"
 */
export function unitLabel(
  unit: TimeUnit,
  value: number,
  locale: string,
  overrides?: UnitLabelOverrides,
): string {
  const override = overrides?.[unit];
  if (override !== undefined) return override;
  const { words, rules } = resolve(locale);
  const forms = words[unit];
  return forms[rules.select(Math.abs(value))] ?? forms.other;
}

/** The table key unitLabel uses for `locale`: "pl", "zh-Hant", or "en" when none fits. */
export function labelLanguage(locale: string): string {
  return resolveKey(locale).key;
}

function resolve(locale: string): ResolvedWords {
  let found = cache.get(locale);
  if (found === undefined) {
    const { key, pluralLocale } = resolveKey(locale);
    found = { words: UNIT_WORDS[key]!, rules: new Intl.PluralRules(pluralLocale) };
    // Locales come from user input: stay bounded.
    // Stryker disable next-line EqualityOperator: equivalent, emptying at 1,000 entries rather than 1,001 only changes what a label costs.
    if (cache.size > 1000) cache.clear();
    cache.set(locale, found);
  }
  return found;
}

function resolveKey(locale: string): { key: string; pluralLocale: string } {
  const parsed = parseTag(locale);
  if (parsed === null) return { key: "en", pluralLocale: "en" };
  const { tag, language, script } = parsed;
  // Without a script the first key reads "xx-undefined", which no table key is (they are
  // "pl" or "zh-Hant"), so it falls through to the language with no test of its own.
  for (const key of [`${language}-${script}`, language]) {
    // The requested tag's own plural rules fit its language's words (pt-PT: "0 dias",
    // pt-BR: "0 dia"); the words were chosen for the language, not the region.
    if (Object.hasOwn(UNIT_WORDS, key)) return { key, pluralLocale: tag };
  }
  return { key: "en", pluralLocale: "en" };
}

/** The canonical tag of `locale`, its language (aliases resolved) and likely script; null if malformed. */
function parseTag(
  locale: string,
): { tag: string; language: string; script: string | undefined } | null {
  try {
    // A string gives exactly one tag or throws: the first is always there.
    const tag = Intl.getCanonicalLocales(locale)[0]!;
    const parsed = new Intl.Locale(tag);
    const language = Object.hasOwn(LANGUAGE_ALIASES, parsed.language)
      ? LANGUAGE_ALIASES[parsed.language]!
      : parsed.language;
    return { tag, language, script: parsed.maximize().script };
  } catch {
    return null;
  }
}
