// Keys as the official ThePower wallets keep them: seed phrases, the export file, WIF.

export {
  findMnemonicKey,
  generateMnemonic,
  isValidMnemonic,
  mnemonicPath,
  mnemonicToSecretKey,
  normalizeMnemonic,
  MNEMONIC_ORDERS,
  type FoundMnemonicKey,
  type MnemonicOrder,
  type MnemonicPlace,
} from './mnemonic.js';
export { secretKeyToWif, wifToSecretKey } from './wif.js';
export { readWalletExport, writeWalletExport, type WalletExport, type WriteWalletExportOptions } from './wallet-export.js';
