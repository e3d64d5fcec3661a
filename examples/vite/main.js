import { runWalletPage } from '../wallet.js';

runWalletPage();
