#!/usr/bin/env node
// Prints the README's error table from the compiled sources: every TpkitError code, its
// meaning, and for the node the HTTP status and numeric API code. Run after `npm run build`.
import { ERROR_CODES } from '../dist/src/errors.js';

let apiErrors = {};
try {
  ({ API_ERRORS: apiErrors } = await import('../dist/src/node/api-errors.js'));
} catch {
  // the node is optional for the table: library codes still print
}

console.log('| code | meaning | HTTP | API code |');
console.log('|---|---|---|---|');
for (const [code, meaning] of Object.entries(ERROR_CODES)) {
  const api = apiErrors[code];
  console.log(`| \`${code}\` | ${meaning} | ${api ? api.status : ''} | ${api ? api.code : ''} |`);
}
