// What `tpkit keygen` shows about a seed-phrase key: the new phrase, once, with the warning
// to write it down, and the path it was derived at so the phrase can be imported again.

import type { SourcedKey } from './keygen-sources.js';

/** Prints the phrase (stdout) and its warning (stderr); with `json` returns the fields for the JSON output instead of printing them. */
export function showKeySource(sourced: SourcedKey | undefined, json: boolean): Record<string, string> {
  if (!sourced?.path) return {};
  const fields: Record<string, string> = {};
  if (sourced.mnemonic) fields.mnemonic = sourced.mnemonic;
  fields.path = sourced.path;
  if (sourced.order) fields.order = sourced.order;
  if (!json) console.log(`derived at  ${sourced.path} (${sourced.place})`);
  if (sourced.mnemonic) {
    const words = sourced.mnemonic.split(' ');
    if (!json) console.log(`seed phrase ${sourced.mnemonic}`);
    console.error(
      `warning: write these ${words.length} words down, in order, and keep them offline. They are the wallet: ` +
        'whoever has them owns it, and without them (or the key file and its passphrase) it is lost. ' +
        'tpkit shows them this once and keeps no copy.',
    );
  }
  return json ? fields : {};
}
