/**
 * Turning a list's filter values into query values. The request schemas
 * have already checked their form; what a schema cannot see is refused here
 * with the same 422 `validation_failed`.
 */
import { DomainError } from '../errors.ts';

/**
 * The instant of a date-time filter. JSON Schema's date-time admits a few
 * forms JavaScript's Date cannot represent (a leap second): those are
 * refused rather than sent to MySQL as an invalid date.
 */
export function instant(text: string, path: string): Date {
  const at = new Date(text);
  if (Number.isNaN(at.getTime()))
    throw new DomainError('validation_failed', `${path} is not a date-time this API can use.`, [
      { path, message: 'is not a usable date-time' },
    ]);
  return at;
}
