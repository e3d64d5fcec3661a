// The docs site: the Markdown pages of docs/, with local search (no service), built by
// `npm run docs:build` and served by `npm run docs`. The API reference under reference/api is
// written by typedoc first (scripts/gen-docs.mjs --api).
import { defineConfig } from 'vitepress';

const guide = [
  { text: 'Install', link: '/guide/install' },
  { text: 'The library', link: '/guide/library' },
  { text: 'Mining', link: '/guide/mining' },
  { text: 'The client', link: '/guide/client' },
  { text: 'Command line', link: '/guide/cli' },
  { text: 'Browser', link: '/guide/browser' },
  { text: 'Bundlers, CSP, runtimes', link: '/guide/bundlers' },
  { text: 'Miner support and fallback', link: '/guide/miner-support' },
  { text: 'Wallet playground', link: '/guide/playground' },
  { text: 'Serving your own page', link: '/guide/serving-pages' },
  { text: 'Official wallets: keys', link: '/guide/official-wallets' },
  { text: 'PowerWallet against the node', link: '/guide/official-wallet' },
  { text: 'Proof of work for SDK wallets', link: '/guide/tssdk' },
  { text: 'Registering from any wallet', link: '/guide/other-wallets' },
];

const node = [
  { text: 'Running the node', link: '/guide/node' },
  { text: 'The node API', link: '/guide/node-api' },
  { text: 'Development controls', link: '/guide/dev-controls' },
  { text: 'How transactions are processed', link: '/guide/processing' },
  { text: 'Security', link: '/guide/security' },
  { text: 'Bounds, damaged stores, a distrustful client', link: '/guide/node-safety' },
  { text: 'Contracts: EVM, JSON-RPC', link: '/guide/contracts' },
];

const design = [
  { text: 'Decisions', link: '/design/decisions' },
  { text: 'Dependencies and why', link: '/design/dependencies' },
  { text: "The miner's design", link: '/design/miner' },
  { text: 'Node architecture', link: '/design/architecture' },
  { text: 'Testing', link: '/design/testing' },
  { text: 'Interop with the official SDK', link: '/design/interop' },
];

const reference = [
  { text: 'API (typedoc)', link: '/reference/api/' },
  { text: 'Error codes', link: '/reference/errors' },
  { text: 'CLI', link: '/reference/cli' },
  { text: 'Node flags', link: '/reference/node-flags' },
  { text: 'HTTP routes', link: '/reference/http-routes' },
  { text: 'tpkit bench --json', link: '/reference/bench-json' },
  { text: 'The HTTP API specification', link: '/reference/http-api-spec' },
];

const perf = [
  { text: 'Performance', link: '/perf/' },
  { text: '2026-11-22', link: '/perf/2026-11-22' },
  { text: '2026-11-25', link: '/perf/2026-11-25' },
  { text: '2026-11-25: the miner everywhere', link: '/perf/2026-11-25-miner-everywhere' },
  { text: "2026-11-26: the store's writes", link: '/perf/2026-11-26' },
  { text: '2026-11-28: the JS fallback', link: '/perf/2026-11-28-js-fallback' },
  { text: '2026-11-28: contracts off the event loop', link: '/perf/2026-11-28-evm' },
];

export default defineConfig({
  title: 'tpkit',
  description: "A TypeScript toolkit for the ThePower blockchain's HTTP API",
  srcExclude: ['raw/**', 'node_modules/**'],
  lastUpdated: false,
  head: [['link', { rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg' }]],
  // The playground and the API specification mention URLs of a running node, not pages.
  ignoreDeadLinks: [/^https?:\/\/(127\.0\.0\.1|localhost)/],
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/library' },
      { text: 'Node', link: '/guide/node' },
      { text: 'Reference', link: '/reference/' },
      { text: 'Design', link: '/design/decisions' },
      { text: 'Performance', link: '/perf/' },
    ],
    sidebar: [
      { text: 'Guide', items: guide },
      { text: 'The local node', items: node },
      { text: 'Reference', link: '/reference/', items: reference },
      { text: 'Design notes', items: design },
      { text: 'Performance', items: perf },
    ],
    search: { provider: 'local' },
    outline: 'deep',
  },
});
