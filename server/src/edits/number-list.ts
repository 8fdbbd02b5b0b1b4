/**
 * Line numbers named in a message: an edit that matches 40,000 places must not produce a message
 * that lists all of them (a result of 50,000 characters the model pays for and cannot use).
 */

/** Most numbers a message names; the rest are counted. */
export const MAX_LISTED_NUMBERS = 20;

/** "1, 3, 9", or the first {@link MAX_LISTED_NUMBERS} and "and N more". */
export function numberList(numbers: readonly number[], max = MAX_LISTED_NUMBERS): string {
  if (numbers.length <= max) return numbers.join(", ");
  return `${numbers.slice(0, max).join(", ")} and ${numbers.length - max} more`;
}
