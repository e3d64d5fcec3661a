// The public codec API: MessagePack, kinds and purposes, addresses, txids, bodies, container.

export * from './msgpack.js';
export { KIND, KIND_NAME, KIND_VERSION, PURPOSE, PURPOSE_NAME, kindName, purposeName, purposeNumber } from './constants.js';
export type { KindName, KindNumber, PurposeName, PurposeNumber } from './constants.js';
export { ADDRESS_LENGTH, addressFromBigInt, addressFromText, addressParts, addressToBigInt, addressToHex, addressToText, isAddress, makeAddress, parseAddress, type AddressParts } from './address.js';
export { encodeVarint, decodeVarint } from './varint.js';
export { base58Encode, base58Decode } from './base58.js';
export { encodeTxid, decodeTxid, type TxidParts } from './txid.js';
export type {
  Body,
  BodyCall,
  BodyCallInput,
  BodyExtra,
  BodyExtraInput,
  ChkeyBody,
  ChkeyBodyInput,
  GenericBody,
  GenericBodyInput,
  NotifyBody,
  NotifyBodyInput,
  OtherBody,
  OtherKindName,
  PayloadItem,
  PayloadItemInput,
  RegisterBody,
  RegisterBodyInput,
} from './body-types.js';
export { genericBody, notifyBody } from './body-generic.js';
export { registerBody, REGISTER_NONCE_WIDTH, hasRegisterNonceTail, setRegisterNonce } from './body-register.js';
export { chkeyBody } from './body-chkey.js';
export { decodeBody } from './body-decode.js';
export { encodeTx, decodeTx, TX_VERSION, type Tx, type TxInput } from './container.js';
export { feeCost, type FeeRate } from './fee.js';
