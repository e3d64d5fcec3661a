// Whether this engine runs WebAssembly SIMD, asked with a 29-byte module instead of the
// 94 KB SIMD binary (which the browser build does not hold until it fetches it). The
// module's one function is `i32.const 0; i8x16.splat`: an engine that validates it
// decodes the SIMD opcode space the kernels use (test/wasm-simd-probe.test.ts checks the
// probe and WebAssembly.validate on the real binary agree).

const SIMD_PROBE = new Uint8Array([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00, // magic, version 1
  0x01,
  0x05,
  0x01,
  0x60,
  0x00,
  0x01,
  0x7b, // type section: () -> v128
  0x03,
  0x02,
  0x01,
  0x00, // function section: one function of type 0
  0x0a,
  0x08,
  0x01,
  0x06,
  0x00,
  0x41,
  0x00,
  0xfd,
  0x0f,
  0x0b, // code: i32.const 0, i8x16.splat, end
]);

/** The probe module's bytes (for tests). */
export const simdProbeBytes = (): Uint8Array<ArrayBuffer> => SIMD_PROBE.slice();

let valid: boolean | undefined;

/** True when this engine validates a module that uses SIMD instructions. */
export function probeSimd(): boolean {
  if (valid === undefined) {
    try {
      valid = typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
    } catch {
      valid = false;
    }
  }
  return valid;
}
