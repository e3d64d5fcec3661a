// The two WASM binaries built from assembly/, same ABI: 'scalar' for any engine, 'simd'
// for engines with WebAssembly SIMD (asconfig.json targets).
export type WasmFlavor = 'scalar' | 'simd';
