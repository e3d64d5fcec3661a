// Keys as the official ThePower wallets keep them: seed phrases, the export file, WIF.

export { generateMnemonic, isValidMnemonic, mnemonicPath, mnemonicToSecretKey, normalizeMnemonic, type MnemonicPlace } from './mnemonic.js';
export { secretKeyToWif, wifToSecretKey } from './wif.js';
export { readWalletExport, writeWalletExport, type WalletExport, type WriteWalletExportOptions } from './wallet-export.js';
