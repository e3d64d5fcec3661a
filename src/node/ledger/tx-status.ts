// The status JSON of a transaction as GET /api/tx/status answers it, written once into the
// store when its block is committed (or when a restored pending one no longer passes) and
// served as stored.

/** Included and successful; a register carries the address it got. */
export function okStatus(blockHashHex: string, registeredAddress?: string): string {
  if (registeredAddress === undefined) return `{"ok":true,"res":"ok","block":"${blockHashHex}"}`;
  const a = JSON.stringify(registeredAddress);
  return `{"ok":true,"res":${a},"address":${a},"block":"${blockHashHex}"}`;
}

/** A contract call that returned data: `retval`, 0x hex (the reference's current status). */
export function retvalStatus(blockHashHex: string, retval: Uint8Array): string {
  return `{"ok":true,"res":"ok","retval":"0x${Buffer.from(retval).toString('hex')}","block":"${blockHashHex}"}`;
}

/** A contract an Ethereum transaction created: its 20-byte address. */
export function createdStatus(blockHashHex: string, evmAddress: string): string {
  return `{"ok":true,"res":"0x${evmAddress}","address":"0x${evmAddress}","block":"${blockHashHex}"}`;
}

/**
 * Included and failed: the reason, the fee it would have cost when that was the reason, and a
 * contract run's revert reason.
 */
export function failedStatus(blockHashHex: string, reason: string, cost?: bigint, revert?: string): string {
  const costField = cost === undefined ? '' : `,"cost":${cost}`;
  const revertField = revert === undefined ? '' : `,"revert":${JSON.stringify(revert)}`;
  return `{"error":true,"res":"${reason}"${costField}${revertField},"block":"${blockHashHex}"}`;
}

/** Acknowledged, then refused on restart without being in a block. */
export function refusedStatus(reason: string): string {
  return `{"error":true,"res":"${reason}"}`;
}
