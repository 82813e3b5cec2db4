// Unit words by language and CLDR plural category, as a label under or after a
// numeral ("5 дней"). Forms follow CLDR's unit patterns without the number; a
// missing category falls back to `other`. Where CLDR's form swallows the number
// (Hebrew "יומיים" = two days) the plain plural is used, since the numeral is shown.
import type { TimeUnit } from "../time/units";

/** Words for one unit: `other` always, the other plural categories where they differ. */
export type UnitForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** Words for all four units of one language. */
export type UnitWords = Readonly<Record<TimeUnit, UnitForms>>;

/** Same word for every count (languages without plural inflection after numerals). */
function invariant(days: string, hours: string, minutes: string, seconds: string): UnitWords {
  return {
    days: { other: days },
    hours: { other: hours },
    minutes: { other: minutes },
    seconds: { other: seconds },
  };
}

/** Words of each unit listed in the order of `categories`; the last is always `other`. */
function byCategory<N extends number>(
  categories: readonly Intl.LDMLPluralRule[] & { length: N },
  forms: Record<TimeUnit, readonly string[] & { length: N }>,
): UnitWords {
  const f = (words: readonly string[]): UnitForms =>
    Object.fromEntries(categories.map((c, i) => [c, words[i]!])) as UnitForms;
  return {
    days: f(forms.days),
    hours: f(forms.hours),
    minutes: f(forms.minutes),
    seconds: f(forms.seconds),
  };
}

/** Singular for `one`, plural for everything else. */
function oneOther(pairs: Record<TimeUnit, [string, string]>): UnitWords {
  return byCategory(["one", "other"] as const, pairs);
}

/** one / few / other (Croatian, Serbian: other is 5 and up, and 11-14). */
function oneFewOther(forms: Record<TimeUnit, [string, string, string]>): UnitWords {
  return byCategory(["one", "few", "other"] as const, forms);
}

/** one / few / many / other, the Slavic pattern (other is for fractions). */
function slavic(forms: Record<TimeUnit, [string, string, string, string]>): UnitWords {
  return byCategory(["one", "few", "many", "other"] as const, forms);
}

/** Unit words keyed by language, or language-script where the script changes them. */
export const UNIT_WORDS: Readonly<Record<string, UnitWords>> = {
  en: oneOther({
    days: ["day", "days"],
    hours: ["hour", "hours"],
    minutes: ["minute", "minutes"],
    seconds: ["second", "seconds"],
  }),
  de: oneOther({
    days: ["Tag", "Tage"],
    hours: ["Stunde", "Stunden"],
    minutes: ["Minute", "Minuten"],
    seconds: ["Sekunde", "Sekunden"],
  }),
  // French, Spanish, Italian and Portuguese also have `many` (a million and up),
  // which takes the ordinary plural here.
  fr: oneOther({
    days: ["jour", "jours"],
    hours: ["heure", "heures"],
    minutes: ["minute", "minutes"],
    seconds: ["seconde", "secondes"],
  }),
  es: oneOther({
    days: ["día", "días"],
    hours: ["hora", "horas"],
    minutes: ["minuto", "minutos"],
    seconds: ["segundo", "segundos"],
  }),
  it: oneOther({
    days: ["giorno", "giorni"],
    hours: ["ora", "ore"],
    minutes: ["minuto", "minuti"],
    seconds: ["secondo", "secondi"],
  }),
  pt: oneOther({
    days: ["dia", "dias"],
    hours: ["hora", "horas"],
    minutes: ["minuto", "minutos"],
    seconds: ["segundo", "segundos"],
  }),
  nl: oneOther({
    days: ["dag", "dagen"],
    hours: ["uur", "uur"],
    minutes: ["minuut", "minuten"],
    seconds: ["seconde", "seconden"],
  }),
  sv: oneOther({
    days: ["dag", "dagar"],
    hours: ["timme", "timmar"],
    minutes: ["minut", "minuter"],
    seconds: ["sekund", "sekunder"],
  }),
  da: oneOther({
    days: ["dag", "dage"],
    hours: ["time", "timer"],
    minutes: ["minut", "minutter"],
    seconds: ["sekund", "sekunder"],
  }),
  nb: oneOther({
    days: ["dag", "dager"],
    hours: ["time", "timer"],
    minutes: ["minutt", "minutter"],
    seconds: ["sekund", "sekunder"],
  }),
  // Finnish uses the partitive singular after numerals other than one.
  fi: oneOther({
    days: ["päivä", "päivää"],
    hours: ["tunti", "tuntia"],
    minutes: ["minuutti", "minuuttia"],
    seconds: ["sekunti", "sekuntia"],
  }),
  el: oneOther({
    days: ["ημέρα", "ημέρες"],
    hours: ["ώρα", "ώρες"],
    minutes: ["λεπτό", "λεπτά"],
    seconds: ["δευτερόλεπτο", "δευτερόλεπτα"],
  }),
  hi: oneOther({
    days: ["दिन", "दिन"],
    hours: ["घंटा", "घंटे"],
    minutes: ["मिनट", "मिनट"],
    seconds: ["सेकंड", "सेकंड"],
  }),
  pl: slavic({
    days: ["dzień", "dni", "dni", "dnia"],
    hours: ["godzina", "godziny", "godzin", "godziny"],
    minutes: ["minuta", "minuty", "minut", "minuty"],
    seconds: ["sekunda", "sekundy", "sekund", "sekundy"],
  }),
  // Czech: `many` is for fractions and `other` for 5 and up, the reverse of Polish.
  cs: slavic({
    days: ["den", "dny", "dne", "dní"],
    hours: ["hodina", "hodiny", "hodiny", "hodin"],
    minutes: ["minuta", "minuty", "minuty", "minut"],
    seconds: ["sekunda", "sekundy", "sekundy", "sekund"],
  }),
  ru: slavic({
    days: ["день", "дня", "дней", "дня"],
    hours: ["час", "часа", "часов", "часа"],
    minutes: ["минута", "минуты", "минут", "минуты"],
    seconds: ["секунда", "секунды", "секунд", "секунды"],
  }),
  uk: slavic({
    days: ["день", "дні", "днів", "дня"],
    hours: ["година", "години", "годин", "години"],
    minutes: ["хвилина", "хвилини", "хвилин", "хвилини"],
    seconds: ["секунда", "секунди", "секунд", "секунди"],
  }),
  ar: {
    days: { zero: "يوم", one: "يوم", two: "يومان", few: "أيام", many: "يومًا", other: "يوم" },
    hours: { zero: "ساعة", one: "ساعة", two: "ساعتان", few: "ساعات", many: "ساعة", other: "ساعة" },
    minutes: {
      zero: "دقيقة",
      one: "دقيقة",
      two: "دقيقتان",
      few: "دقائق",
      many: "دقيقة",
      other: "دقيقة",
    },
    seconds: {
      zero: "ثانية",
      one: "ثانية",
      two: "ثانيتان",
      few: "ثوانٍ",
      many: "ثانية",
      other: "ثانية",
    },
  },
  he: oneOther({
    days: ["יום", "ימים"],
    hours: ["שעה", "שעות"],
    minutes: ["דקה", "דקות"],
    seconds: ["שנייה", "שניות"],
  }),
  // Romanian: `other` (20 and up, 100 and up) takes "de" before the noun.
  ro: {
    days: { one: "zi", few: "zile", other: "de zile" },
    hours: { one: "oră", few: "ore", other: "de ore" },
    minutes: { one: "minut", few: "minute", other: "de minute" },
    seconds: { one: "secundă", few: "secunde", other: "de secunde" },
  },
  sk: slavic({
    days: ["deň", "dni", "dňa", "dní"],
    hours: ["hodina", "hodiny", "hodiny", "hodín"],
    minutes: ["minúta", "minúty", "minúty", "minút"],
    seconds: ["sekunda", "sekundy", "sekundy", "sekúnd"],
  }),
  // Bulgarian "часа" is the count form used after numerals.
  bg: oneOther({
    days: ["ден", "дни"],
    hours: ["час", "часа"],
    minutes: ["минута", "минути"],
    seconds: ["секунда", "секунди"],
  }),
  hr: oneFewOther({
    days: ["dan", "dana", "dana"],
    hours: ["sat", "sata", "sati"],
    minutes: ["minuta", "minute", "minuta"],
    seconds: ["sekunda", "sekunde", "sekundi"],
  }),
  sr: oneFewOther({
    days: ["дан", "дана", "дана"],
    hours: ["сат", "сата", "сати"],
    minutes: ["минут", "минута", "минута"],
    seconds: ["секунда", "секунде", "секунди"],
  }),
  "sr-Latn": oneFewOther({
    days: ["dan", "dana", "dana"],
    hours: ["sat", "sata", "sati"],
    minutes: ["minut", "minuta", "minuta"],
    seconds: ["sekunda", "sekunde", "sekundi"],
  }),
  // Slovenian has a dual: 1 dan, 2 dneva, 3 dnevi, 5 dni.
  sl: {
    days: { one: "dan", two: "dneva", few: "dnevi", other: "dni" },
    hours: { one: "ura", two: "uri", few: "ure", other: "ur" },
    minutes: { one: "minuta", two: "minuti", few: "minute", other: "minut" },
    seconds: { one: "sekunda", two: "sekundi", few: "sekunde", other: "sekund" },
  },
  // Lithuanian: one (1, 21), few (2-9, 22-29), other (0, 10-20, 30) takes the genitive plural.
  lt: slavic({
    days: ["diena", "dienos", "dienos", "dienų"],
    hours: ["valanda", "valandos", "valandos", "valandų"],
    minutes: ["minutė", "minutės", "minutės", "minučių"],
    seconds: ["sekundė", "sekundės", "sekundės", "sekundžių"],
  }),
  // Latvian: zero (0, 10-20, 30) takes the genitive plural.
  lv: {
    days: { zero: "dienu", one: "diena", other: "dienas" },
    hours: { zero: "stundu", one: "stunda", other: "stundas" },
    minutes: { zero: "minūšu", one: "minūte", other: "minūtes" },
    seconds: { zero: "sekunžu", one: "sekunde", other: "sekundes" },
  },
  et: oneOther({
    days: ["päev", "päeva"],
    hours: ["tund", "tundi"],
    minutes: ["minut", "minutit"],
    seconds: ["sekund", "sekundit"],
  }),
  ca: oneOther({
    days: ["dia", "dies"],
    hours: ["hora", "hores"],
    minutes: ["minut", "minuts"],
    seconds: ["segon", "segons"],
  }),
  mr: oneOther({
    days: ["दिवस", "दिवस"],
    hours: ["तास", "तास"],
    minutes: ["मिनिट", "मिनिटे"],
    seconds: ["सेकंद", "सेकंद"],
  }),
  // Nouns after numerals stay singular in these languages.
  tr: invariant("gün", "saat", "dakika", "saniye"),
  hu: invariant("nap", "óra", "perc", "másodperc"),
  ja: invariant("日", "時間", "分", "秒"),
  zh: invariant("天", "小时", "分钟", "秒"),
  "zh-Hant": invariant("天", "小時", "分鐘", "秒"),
  ko: invariant("일", "시간", "분", "초"),
  id: invariant("hari", "jam", "menit", "detik"),
  vi: invariant("ngày", "giờ", "phút", "giây"),
  th: invariant("วัน", "ชั่วโมง", "นาที", "วินาที"),
  ms: invariant("hari", "jam", "minit", "saat"),
  fa: invariant("روز", "ساعت", "دقیقه", "ثانیه"),
  ne: invariant("दिन", "घण्टा", "मिनेट", "सेकेन्ड"),
};

/** Tags whose words live under another key ("no" is Norwegian, written as Bokmål). */
export const LANGUAGE_ALIASES: Readonly<Record<string, string>> = { no: "nb" };
