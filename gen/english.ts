/**
 * English in generated text and the generator's messages: the indefinite article of a word
 * ("an Author", "a User"), a noun's plural ("Categories"), and a count with its noun in the
 * right number ("1 entity", "2 entities").
 *
 * @module
 */
import pluralize from "pluralize";

/**
 * `a` or `an` for `word`, by its sound as far as the spelling tells: `an` before a vowel, `a`
 * before a consonant and before a `u`, `eu` or `one` said with a leading "y"/"w" sound ("a
 * User", "a Unit", "a Euro", "an Update", "an Order").
 */
export function article(word: string): "a" | "an" {
  if (/^(?:u(?:n[iy]|s[eu]|t[ie]|r[aeiou]|bi)|eu|one\b|once)/i.test(word)) return "a";
  return /^[aeiou]/i.test(word) ? "an" : "a";
}

/** `word` with its indefinite article: `an Author`. */
export function withArticle(word: string): string {
  return `${article(word)} ${word}`;
}

/** The plural of a noun or type name, its case kept: `Category` -> `Categories`. */
export function plural(word: string): string {
  return pluralize.plural(word);
}

/** `1 entity`, `2 entities`: `n` and the noun in the number it takes. */
export function count(n: number, singular: string, pluralForm = plural(singular)): string {
  return `${n} ${n === 1 ? singular : pluralForm}`;
}
