// SK for Ethereum accounts in node tests: gas is never free, and an Ethereum key's account gets
// SK only through the EVM. A development wallet becomes a forwarder contract (in-place deploy);
// a call to it with value passes the value on to the 20-byte address in its calldata.
import { createClient } from '../../src/client/client.js';
import { deployContract, sendContractCall } from '../../src/client/contract.js';

// CALL(gas, calldata word 0, callvalue, 0, 0, 0, 0), POP, STOP: 16 bytes.
const FORWARDER = '6000600060006000' + '34' + '600035' + '5a' + 'f1' + '50' + '00';
// CODECOPY the 16 runtime bytes after these 12, RETURN them.
const INIT = `0x6010600c60003960106000f3${FORWARDER}`;

export interface EthFunder {
  /** Sends `amount` SK units to an Ethereum account (0x + 40 hex digits) and waits for the block. */
  fund(to: string, amount: bigint): Promise<void>;
}

/** `forwarder` becomes the contract; `payer` pays. Two distinct development wallets of the node. */
export async function ethFunder(url: string, forwarder: { address: string | Uint8Array; secretKey: Uint8Array }, payer: { address: string | Uint8Array; secretKey: Uint8Array }): Promise<EthFunder> {
  const client = createClient({ baseUrl: url });
  await deployContract({ client, secretKey: forwarder.secretKey, from: forwarder.address, code: INIT });
  return {
    async fund(to, amount) {
      const data = `0x${to.replace(/^0x/, '').toLowerCase().padStart(64, '0')}`;
      const sent = await sendContractCall({ client, secretKey: payer.secretKey, from: payer.address, to: forwarder.address, data, value: amount, gas: 100_000n });
      if (!sent.status?.ok) throw new Error(`funding ${to} failed: ${JSON.stringify(sent.status)}`);
    },
  };
}
