// A JSON-RPC error answer: its code (-32602 bad params, -32000 refused, 3 reverted, -32005 over
// a limit), the message clients match on, and the revert data when there is any.

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: string,
  ) {
    super(message);
  }
}
