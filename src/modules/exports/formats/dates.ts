/**
 * Dates in exports: `YYYY-MM-DD HH:MM:SS` wall-clock time in the requested zone, no `T`, no zone
 * (COMPAT.md "Response exports"; the real files). UTC by default. Offsets are cached per quarter hour
 * (every zone transition falls on one) so a million rows do not each pay for Intl.
 */

const QUARTER_HOUR_MS = 15 * 60 * 1000;

/** Milliseconds since the epoch of a Date, an ISO string or a number; undefined when unreadable. */
export function toEpochMs(value: unknown): number | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value !== '') {
    // `2024-05-01 12:00:00` (the export spelling) is UTC; Date.parse would read it as local time.
    const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)
      ? `${value.replace(' ', 'T')}Z`
      : value;
    const ms = Date.parse(iso);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

export interface DateFormatter {
  /** Offset of the zone from UTC at that instant, in milliseconds. */
  offsetMs(epochMs: number): number;
  /** `YYYY-MM-DD HH:MM:SS` in the zone. */
  format(epochMs: number): string;
  /** ISO 8601 with milliseconds: `...Z` in UTC, `...+02:00` elsewhere (json, ndjson). */
  formatIso(epochMs: number): string;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

function wallClock(ms: number): string {
  const d = new Date(ms);
  return (
    `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ` +
    `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`
  );
}

function zoneOffsetFinder(timeZone: string): (epochMs: number) => number {
  const intl = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const cache = new Map<number, number>();
  return (epochMs) => {
    const bucket = Math.floor(epochMs / QUARTER_HOUR_MS);
    const cached = cache.get(bucket);
    if (cached !== undefined) return cached;
    const at = bucket * QUARTER_HOUR_MS;
    const parts: Record<string, number> = {};
    for (const part of intl.formatToParts(at)) parts[part.type] = Number(part.value);
    const local = Date.UTC(
      parts.year ?? 1970,
      (parts.month ?? 1) - 1,
      parts.day ?? 1,
      parts.hour ?? 0,
      parts.minute ?? 0,
      parts.second ?? 0,
    );
    const offset = local - at;
    if (cache.size > 10_000) cache.clear();
    cache.set(bucket, offset);
    return offset;
  };
}

/** Whether dates in `timeZone` are written in UTC (`…Z`). */
export function isUtcZone(timeZone: string | undefined): timeZone is undefined | 'Z' | 'UTC' | 'Etc/UTC' {
  return timeZone === undefined || timeZone === 'Z' || timeZone === 'UTC' || timeZone === 'Etc/UTC';
}

/** Throws a RangeError for an unknown zone, so a bad `timeZone` fails before any row is written. */
export function createDateFormatter(timeZone: string | undefined): DateFormatter {
  const utc = isUtcZone(timeZone);
  const offsetMs = utc ? () => 0 : zoneOffsetFinder(timeZone);
  return {
    offsetMs,
    format: (ms) => wallClock(ms + offsetMs(ms)),
    formatIso: (ms) => {
      const offset = offsetMs(ms);
      if (offset === 0 && utc) return new Date(ms).toISOString();
      const local = new Date(ms + offset).toISOString().slice(0, -1);
      const minutes = Math.abs(offset) / 60_000;
      const sign = offset < 0 ? '-' : '+';
      return `${local}${sign}${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`;
    },
  };
}
