// The extension page (the popup, a tab, or an offscreen document): mines on Web Workers like
// any page. With ?on=background it asks the background service worker to mine instead, on
// its own thread (a service worker has no Worker), and shows that outcome.
import { runWalletPage, showReport } from '../wallet.js';

if (new URLSearchParams(location.search).get('on') === 'background') {
  showReport(() =>
    chrome.runtime.sendMessage({ type: 'register' }).then((answer) => {
      if (!answer.ok) throw Object.assign(new Error(answer.message), answer);
      return answer.report;
    }),
  );
} else {
  runWalletPage();
}
