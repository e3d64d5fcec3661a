'use client';
// The wallet runs in the browser only: in an effect, after the page hydrates.
import { useEffect } from 'react';
import { runWalletPage } from '../../wallet.js';

export default function Page() {
  useEffect(() => {
    runWalletPage();
  }, []);
  return (
    <main>
      <h1>tpkit wallet (Next.js)</h1>
      <pre id="result">mining…</pre>
    </main>
  );
}
