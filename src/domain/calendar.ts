/**
 * The gateway's calendar day: Tehran's. The dashboard's daily totals and the
 * settlement run's date both count days this way, so "today" is one day for both.
 */
export const TEHRAN_TIME_ZONE = 'Asia/Tehran';

const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: TEHRAN_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** `YYYY-MM-DD` (Gregorian) of the instant in Tehran. */
export const tehranDay = (at: Date): string => dayFormat.format(at);

const offsetFormat = new Intl.DateTimeFormat('en-US', { timeZone: TEHRAN_TIME_ZONE, timeZoneName: 'longOffset' });

/**
 * The instants a Tehran calendar day `YYYY-MM-DD` spans: [start, end), from 00:00:00.000 Tehran
 * time to the next day's 00:00. Tehran's offset is read from the time-zone database at the day's
 * noon (+03:30 since 2022; +04:30 in the summers of the years Iran kept daylight saving time).
 */
export function tehranDayBounds(day: string): { start: Date; end: Date } {
  const offsetAt = (date: string) => {
    const name =
      offsetFormat.formatToParts(new Date(`${date}T12:00:00Z`)).find((p) => p.type === 'timeZoneName')?.value ??
      'GMT+03:30';
    return name === 'GMT' ? '+00:00' : name.slice(3);
  };
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return { start: new Date(`${day}T00:00:00${offsetAt(day)}`), end: new Date(`${next}T00:00:00${offsetAt(next)}`) };
}

/** Whether `text` is a real calendar date written `YYYY-MM-DD`. */
export function isCalendarDay(text: string): boolean {
  return /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(text) && new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) === text;
}
