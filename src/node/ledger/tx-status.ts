// The status JSON of a transaction as GET /api/tx/status answers it, written once into the
// store when its block is committed (or when a restored pending one no longer passes) and
// served as stored.

/** Included and successful; a register carries the address it got. */
export function okStatus(blockHashHex: string, registeredAddress?: string): string {
  if (registeredAddress === undefined) return `{"ok":true,"res":"ok","block":"${blockHashHex}"}`;
  const a = JSON.stringify(registeredAddress);
  return `{"ok":true,"res":${a},"address":${a},"block":"${blockHashHex}"}`;
}

/** Included and failed: the reason, and the fee it would have cost when that was the reason. */
export function failedStatus(blockHashHex: string, reason: string, cost?: bigint): string {
  const costField = cost === undefined ? '' : `,"cost":${cost}`;
  return `{"error":true,"res":"${reason}"${costField},"block":"${blockHashHex}"}`;
}

/** Acknowledged, then refused on restart without being in a block. */
export function refusedStatus(reason: string): string {
  return `{"error":true,"res":"${reason}"}`;
}
