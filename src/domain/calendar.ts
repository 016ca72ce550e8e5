/**
 * The gateway's calendar day: Tehran's. The dashboard's daily totals and the
 * settlement run's date both count days this way, so "today" is one day for both.
 */
export const TEHRAN_TIME_ZONE = 'Asia/Tehran';

const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: TEHRAN_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** `YYYY-MM-DD` (Gregorian) of the instant in Tehran. */
export const tehranDay = (at: Date): string => dayFormat.format(at);
