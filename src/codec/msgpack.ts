// tpkit's own MessagePack: a writer with the rules signed bytes need and a strict reader
// that returns a tree keeping the wire format of every value.

export { encodeMsgpack, type MsgEncodeOptions } from './msgpack-write.js';
export { decodeMsgpack, type MsgDecodeOptions } from './msgpack-read.js';
export { msgpackToValue } from './msgpack-value.js';
export {
  MsgExt,
  MsgFloat,
  Uint64,
  MSGPACK_MAX_DEPTH,
  MSGPACK_MAX_ITEMS,
  type MsgKey,
  type MsgValue,
  type MsgNode,
  type MsgNodeType,
  type MsgNilNode,
  type MsgBoolNode,
  type MsgUintNode,
  type MsgIntNode,
  type MsgFloatNode,
  type MsgStrNode,
  type MsgBinNode,
  type MsgArrayNode,
  type MsgMapNode,
  type MsgExtNode,
} from './msgpack-types.js';
