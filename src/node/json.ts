// JSON for API responses. Balances are bigints and may exceed 2^53: they are written as bare
// JSON integers, as the reference node writes them, never as strings or rounded floats.
// Node 20 has no JSON.rawJSON, hence this small writer.

export type JsonValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | JsonValue[]
  | { [key: string]: JsonValue | undefined };

export function toJson(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + toJson(value[i]);
    return out + ']';
  }
  let out = '{';
  let first = true;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, JsonValue | undefined>)[key];
    if (item === undefined) continue;
    out += (first ? '' : ',') + JSON.stringify(key) + ':' + toJson(item);
    first = false;
  }
  return out + '}';
}
