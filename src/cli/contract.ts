// `tpkit contract deploy|call|send`: Solidity contracts on a node that runs them. deploy puts
// creation code at the key file's own wallet (in place, as the official SDK deploys); call
// is a view (POST /api/execute/call, changes nothing); send is a transaction to a contract.
// Calldata is given as hex (--data, from viem, ethers or `cast calldata`) or built here from a
// signature with static arguments (--sig 'transfer(address,uint256)' --arg A --arg 10).

import { keccak_256 } from '@noble/hashes/sha3.js';
import { deployContract, sendContractCall, type ContractTxResult } from '../client/contract.js';
import { bytesToHex } from '../bytes.js';
import { ArgumentError } from '../errors.js';
import { calldata } from '../node/evm/execute-call.js';
import { addressArgument, readBytesArgument } from './input.js';
import { openKeyFile } from './key-file.js';
import { noAddressAdvice } from './wallet-owner.js';
import { NODE_HELP, NODE_OPTIONS, PASSPHRASE_HELP, PASSPHRASE_OPTION, clientFrom, EXIT, interruptSignal, parseAmount, passphraseFrom, printJson, runWalletCommand } from './wallet-common.js';
import { parseCommandArgs } from './usage.js';

const CALLDATA_HELP = `  --data HEX          calldata, ABI-encoded (0x optional)
  --sig SIGNATURE     or: a function signature, e.g. 'transfer(address,uint256)', with
  --arg VALUE         its arguments in order (repeat; integers, addresses, true/false, bytesN)`;

const TX_HELP = `  --key FILE          key file of the sending wallet
  --from ADDRESS      sending wallet (default: the address recorded in the key file)
  --gas N             gas to buy (default 10000000), at the node's current.gas rate; unused gas comes back
  --value N           SK sent with it (msg.value)
  --no-wait           print the txid without waiting for the block
${PASSPHRASE_HELP}`;

const HELP = `Usage: tpkit contract deploy --key FILE --code HEX|FILE [--args HEX] [options]
       tpkit contract call --to ADDRESS (--data HEX | --sig SIG [--arg V]...) [options]
       tpkit contract send --key FILE --to ADDRESS (--data HEX | --sig SIG [--arg V]...) [options]

deploy  runs the creation code (solc's bytecode) at the key file's wallet, which becomes the
        contract; --args are the constructor's ABI-encoded arguments
call    runs a view at the node's head and prints what it returns (nothing is sent)
send    sends a transaction calling the contract, waits for the block, prints its return data

Options:
  --code HEX|FILE     creation code: hex, or a file holding it (solc's .bin)
  --args HEX          constructor arguments, ABI-encoded
  --to ADDRESS        the contract
${CALLDATA_HELP}
${TX_HELP}
${NODE_HELP}

Exit code 1 when the node refuses the transaction, or it reverts or fails in the block (the
revert's reason is printed).`;

const OPTIONS = {
  ...NODE_OPTIONS,
  ...PASSPHRASE_OPTION,
  key: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  code: { type: 'string' },
  args: { type: 'string' },
  data: { type: 'string' },
  sig: { type: 'string' },
  arg: { type: 'string', multiple: true },
  gas: { type: 'string' },
  value: { type: 'string' },
  'no-wait': { type: 'boolean' },
} as const;

function hexArgument(text: string, flag: string): Uint8Array {
  const clean = text.trim().replace(/^0x/i, '');
  if (!/^([0-9a-fA-F]{2})*$/.test(clean)) throw new ArgumentError(`${flag} expected hex digits (0x optional), an even number of them`);
  return Uint8Array.from(Buffer.from(clean, 'hex'));
}

function calldataFrom(values: { data?: string; sig?: string; arg?: string[] }): Uint8Array {
  if (values.data !== undefined && values.sig !== undefined) throw new ArgumentError('give --data or --sig, not both');
  if (values.data !== undefined) return hexArgument(values.data, '--data');
  if (values.sig === undefined) throw new ArgumentError('--data or --sig is required: what to call');
  const args = (values.arg ?? []).map((a) => (a === 'true' ? true : a === 'false' ? false : a));
  return calldata(values.sig, args, keccak_256);
}

function printTx(kind: 'deploy' | 'send', sent: ContractTxResult & { address?: string; returnData?: Uint8Array }, json: boolean): void {
  const block = sent.status?.ok ? sent.status.block : undefined;
  const retval = sent.returnData === undefined ? undefined : '0x' + bytesToHex(sent.returnData);
  if (json) {
    printJson({
      txid: sent.txid,
      state: sent.status ? 'included' : 'submitted',
      seq: sent.seq,
      gasOffered: sent.gasOffered,
      gasCurrency: sent.gasCurrency,
      fee: sent.fee,
      feeCurrency: sent.feeCurrency,
      block,
      address: sent.address,
      retval,
    });
    return;
  }
  console.log(`txid     ${sent.txid}`);
  if (kind === 'deploy') console.log(`contract ${sent.address}`);
  console.log(`gas      up to ${sent.gasOffered} ${sent.gasCurrency} (the unused part comes back)`);
  console.log(`fee      ${sent.fee}${sent.feeCurrency ? ` ${sent.feeCurrency}` : ''}`);
  if (retval !== undefined) console.log(`returned ${retval}`);
  console.log(sent.status ? `block    ${block ?? '?'} (included)` : `status   submitted; see \`tpkit status ${sent.txid}\``);
}

export function run(argv: string[]): Promise<number> {
  return runWalletCommand(
    'contract',
    async () => {
      const [sub, ...rest] = argv;
      const { values } = parseCommandArgs('contract', { args: rest, options: OPTIONS });
      if (values.help || sub === undefined || sub === '--help' || sub === '-h') {
        console.log(HELP);
        return sub === undefined ? EXIT.usage : EXIT.ok;
      }
      if (sub !== 'deploy' && sub !== 'call' && sub !== 'send') throw new ArgumentError(`unknown subcommand '${sub}': expected deploy, call or send`);
      const client = clientFrom(values);
      const signal = interruptSignal();

      if (sub === 'call') {
        if (!values.to) throw new ArgumentError('--to is required: the contract');
        const view = await client.executeCall(
          { to: addressArgument(values.to, '--to'), data: calldataFrom(values), from: values.from === undefined ? undefined : addressArgument(values.from, '--from') },
          { signal },
        );
        const data = '0x' + bytesToHex(view.data);
        if (values.json) printJson({ result: view.result, data, gasUsed: view.gasUsed, reason: view.reason });
        else {
          console.log(`result   ${view.result}${view.reason ? `: ${view.reason}` : ''}`);
          console.log(`data     ${data}`);
          console.log(`gas used ${view.gasUsed}`);
        }
        return view.result === 'return' ? EXIT.ok : EXIT.failed;
      }

      if (!values.key) throw new ArgumentError('--key is required: the key file of the sending wallet');
      const gas = values.gas === undefined ? undefined : parseAmount(values.gas, '--gas');
      const value = values.value === undefined ? undefined : parseAmount(values.value, '--value', { allowZero: true });
      const given = values.from === undefined ? undefined : addressArgument(values.from, '--from');
      const common = { client, gas, value, wait: !values['no-wait'], signal };
      if (sub === 'deploy') {
        if (!values.code) throw new ArgumentError('--code is required: the creation code, hex or a file');
        const code = readBytesArgument(values.code, 'code');
        const args = values.args === undefined ? undefined : hexArgument(values.args, '--args');
        const { secretKey, info } = await openKeyFile(values.key, passphraseFrom(values));
        const from = given ?? info.address;
        if (!from) throw new ArgumentError(`${values.key} records no wallet address`, { details: noAddressAdvice(values.key) });
        printTx('deploy', await deployContract({ ...common, secretKey, from, code, args }), values.json === true);
        return EXIT.ok;
      }
      if (!values.to) throw new ArgumentError('--to is required: the contract');
      const to = addressArgument(values.to, '--to');
      const data = calldataFrom(values);
      const { secretKey, info } = await openKeyFile(values.key, passphraseFrom(values));
      const from = given ?? info.address;
      if (!from) throw new ArgumentError(`${values.key} records no wallet address`, { details: noAddressAdvice(values.key) });
      printTx('send', await sendContractCall({ ...common, secretKey, from, to, data }), values.json === true);
      return EXIT.ok;
    },
    argv,
  );
}
