// The official SDK's key calls (@thepowereco/tssdk 2.1.0), typed by the shape the key tests
// use, and the random addresses and places those tests draw.
import { createRequire } from 'node:module';
import { addressToText, makeAddress } from '../../src/codec/address.js';
import { mulberry32 } from './helpers.js';

export interface SdkKeyPair {
  toWIF(): string;
}
export interface SdkCrypto {
  generateSeedPhrase(): string;
  generateKeyPairFromSeedPhrase(phrase: string, block: number, group: number): Promise<SdkKeyPair>;
  generateKeyPairFromSeedPhraseAndAddress(phrase: string, address: string): Promise<SdkKeyPair>;
  encryptWalletDataToPEM(wif: string, address: string, password: string): string;
  decryptWalletData(text: string, password: string): { address: string; wif: string };
}
export interface SdkWalletExport {
  getExportData(wif: string, address: string, password: string, hint?: string): string;
  parseExportData(data: string, password: string): Promise<{ address: string; wif: string }>;
}

const sdkRequire = createRequire(import.meta.url);
export const { CryptoApi, WalletApi } = sdkRequire('@thepowereco/tssdk') as {
  CryptoApi: SdkCrypto;
  WalletApi: new (network: unknown) => SdkWalletExport;
};
// getExportData and parseExportData touch no network: the wallet needs none for them.
export const sdkWallet = new WalletApi({});

const random = mulberry32(19);
export const randomInt = (max: number) => Math.floor(random() * max);
export const randomAddress = () => addressToText(makeAddress({ group: randomInt(1 << 16), block: randomInt(1 << 21), wallet: randomInt(1 << 24) }));
export const PLACES = [
  { block: 0, group: 0 },
  { block: 1, group: 10 },
  { block: 40, group: 10 },
  { block: 1_234_567, group: 513 },
  { block: (1 << 21) - 1, group: (1 << 16) - 1 },
];
