// JSON for API responses. Balances are bigints and may exceed 2^53: they are written as bare
// JSON integers, as the reference node writes them, never as strings or rounded floats.
// Node 20 has no JSON.rawJSON, hence this small writer.

export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue | undefined };

/** JSON text of a value. */
export function toJson(value: JsonValue | undefined): string {
  let out = '';
  writeJson(value, (text) => (out += text));
  return out;
}

/**
 * Writes a value as JSON text, piece by piece, to `emit`: toJson gathers the pieces into a
 * string, the chunked writer (json-bytes.ts) into bytes. Members that are undefined are left out.
 */
export function writeJson(value: JsonValue | undefined, emit: (text: string) => void): void {
  if (value === null || value === undefined) return emit('null');
  switch (typeof value) {
    case 'string':
      return emit(JSON.stringify(value));
    case 'number':
      return emit(Number.isFinite(value) ? String(value) : 'null');
    case 'bigint':
      return emit(value.toString());
    case 'boolean':
      return emit(value ? 'true' : 'false');
  }
  if (Array.isArray(value)) {
    emit('[');
    for (let i = 0; i < value.length; i++) {
      if (i) emit(',');
      writeJson(value[i], emit);
    }
    return emit(']');
  }
  emit('{');
  let first = true;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, JsonValue | undefined>)[key];
    if (item === undefined) continue;
    emit(`${first ? '' : ','}${JSON.stringify(key)}:`);
    writeJson(item, emit);
    first = false;
  }
  emit('}');
}
