// Why WebAssembly does not run in this thread, in words a user can act on: missing from the
// engine (Node --jitless, a browser with WebAssembly turned off, iOS Lockdown Mode),
// refused by the page's Content Security Policy (script-src without 'wasm-unsafe-eval'),
// whose directive the engines name in the error they throw, or refused by the runtime
// itself, which compiles no WebAssembly at run time (Cloudflare's workerd: V8 says "code
// generation disallowed by embedder"; modules bundled at deploy time are all it runs). It imports nothing, and is
// loaded only where WebAssembly is refused or a diagnosis is asked for (the browser build
// makes it a chunk of its own).

export interface WasmRefusalInfo {
  /**
   * 'missing': no WebAssembly global; 'csp': a Content Security Policy refused the compile;
   * 'runtime': the runtime compiles no WebAssembly at run time (workerd); 'compile': another compile failure.
   */
  cause: 'missing' | 'csp' | 'runtime' | 'compile';
  /** The engine's own message. */
  message: string;
  /** The CSP directive at fault, when the engine named it (Chromium, WebKit) or a securitypolicyviolation event did. */
  directive?: string;
  /** What to do about it. */
  fix: string;
}

const CSP_MESSAGE = /content security policy|\bCSP\b|unsafe-eval/i;
/** V8's words when its embedder, not a page's policy, forbids compiling code at run time. */
const EMBEDDER_MESSAGE = /code generation disallowed by embedder|code generation from strings disallowed/i;

/** A compile error (wasm/kernel.ts wasmRefusal) read as a refusal: its cause, and the directive named in its message if any. */
export function describeRefusal(error: unknown, present: boolean): WasmRefusalInfo {
  const message = error instanceof Error ? error.message : String(error);
  if (!present) {
    return { cause: 'missing', message, fix: 'for full speed, run where WebAssembly is enabled (not Node --jitless, not a browser with WebAssembly turned off)' };
  }
  if (CSP_MESSAGE.test(message)) {
    const directive = /directive:?\s*"([^"]+)"/i.exec(message)?.[1];
    return { cause: 'csp', message, directive, fix: "add 'wasm-unsafe-eval' to the page's script-src (a Manifest V3 extension: to content_security_policy.extension_pages)" };
  }
  if (EMBEDDER_MESSAGE.test(message)) {
    return {
      cause: 'runtime',
      message,
      fix: "this runtime compiles no WebAssembly at run time (Cloudflare Workers and workerd run only modules bundled at deploy time), so the JS kernel mines here; for full speed, mine where WebAssembly compiles (the wallet's page or app)",
    };
  }
  return { cause: 'compile', message, fix: 'report the message: this engine should compile the kernels' };
}

/**
 * Why a search's main kernel was the one that ran: asked for, the fastest measured, or the
 * JS fallback and what refused WebAssembly (`refused`: wasm/kernel.ts wasmRefusal()).
 */
export function kernelReason(choice: string, ran: string, refused: { error: unknown } | null, present: boolean): string {
  if (choice !== 'auto') return `kernel '${choice}' was asked for`;
  if (ran !== 'js') return `the fastest WebAssembly kernel measured on this engine ('auto')`;
  if (!refused) return 'the JS kernel: the WebAssembly kernels did not load (their .wasm files not found beside the bundle, or the miner threads could not run them)';
  return fallbackReason(describeRefusal(refused.error, present));
}

/** Why the JS kernel ran instead of a WebAssembly one. */
function fallbackReason(refusal: WasmRefusalInfo): string {
  const what =
    refusal.cause === 'missing'
      ? 'WebAssembly is not available in this engine'
      : refusal.cause === 'csp'
        ? `WebAssembly is refused by the Content Security Policy${refusal.directive ? ` (${refusal.directive})` : ''}`
        : refusal.cause === 'runtime'
          ? 'this runtime compiles no WebAssembly at run time'
          : `WebAssembly failed to compile (${refusal.message})`;
  return `the JS fallback: ${what}; ${refusal.fix}`;
}
