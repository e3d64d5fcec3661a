// The Node and Bun side of bench/jsc-kernels.ts, one process per measurement:
//   kernel-probe-child.js KERNEL AT MS   one kernel's rate (kernel-probe.ts), as JSON
//   kernel-probe-child.js auto           minerSupport(): the kernel 'auto' keeps here, and the rates it saw

import { minerSupport } from '../src/mine.js';
import { SCALAR_WASM_BASE64 } from '../src/wasm/scalar.generated.js';
import { SIMD_WASM_BASE64 } from '../src/wasm/simd.generated.js';
import { PROBE_KERNELS, probeRate, type ProbeKernel } from './kernel-probe.js';

const [kernel, at, ms] = process.argv.slice(2);
if (kernel === 'auto') {
  const support = await minerSupport({ measureMs: 1000 });
  console.log(JSON.stringify({ kernel: support.kernel, rates: support.rates }));
} else {
  if (!PROBE_KERNELS.includes(kernel as ProbeKernel)) throw new Error(`kernel expected one of ${PROBE_KERNELS.join(', ')} or auto, got ${kernel}`);
  const binaries = { scalar: Buffer.from(SCALAR_WASM_BASE64, 'base64'), simd: Buffer.from(SIMD_WASM_BASE64, 'base64') };
  console.log(JSON.stringify(await probeRate(binaries, kernel as ProbeKernel, Number(at), Number(ms))));
}
