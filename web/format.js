// Numbers as a person reads them: rates with SI prefixes, counts with separators,
// durations in the largest unit that keeps them short.

const count = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

/** 1234567 -> "1,234,567"; bigint amounts keep every digit. */
export function formatCount(value) {
  return typeof value === 'bigint' ? value.toLocaleString('en') : count.format(value);
}

function threeDigits(value) {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

/** Hashes per second: "850 H/s", "1.93 MH/s". */
export function formatRate(hashesPerSecond) {
  if (!Number.isFinite(hashesPerSecond) || hashesPerSecond <= 0) return '–';
  const units = ['H/s', 'kH/s', 'MH/s', 'GH/s'];
  let value = hashesPerSecond;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${threeDigits(value)} ${units[unit]}`;
}

/** Milliseconds: "0.4 ms", "12 ms", "3.4 s", "5 min 20 s", "2 h 5 min", "3.1 days", "12 years". */
export function formatDuration(ms) {
  if (!Number.isFinite(ms)) return 'unknown';
  if (ms < 10) return `${ms.toFixed(ms < 0.1 ? 2 : 1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
  if (s < 3600) {
    const min = Math.floor(s / 60);
    return `${min} min ${Math.round(s - min * 60)} s`;
  }
  if (s < 86400) {
    const h = Math.floor(s / 3600);
    return `${h} h ${Math.round((s - h * 3600) / 60)} min`;
  }
  const days = s / 86400;
  if (days < 365) return `${days < 10 ? days.toFixed(1) : Math.round(days)} days`;
  return `${formatCount(Math.round(days / 365))} years`;
}

/** A long hex hash shortened for a sentence, e.g. "3FA2B1…90C4". */
export function shortHash(hex) {
  return typeof hex === 'string' && hex.length > 16 ? `${hex.slice(0, 8)}…${hex.slice(-6)}` : String(hex ?? '');
}
