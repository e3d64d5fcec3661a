// The file piscina loads in each miner thread. piscina tries require() first, and on Node
// 20.19+ require() of an ES module instantiates it synchronously: a thread terminated during
// that step (its pool destroyed, or the process exiting, while the thread still starts) aborts
// the whole process with "v8::Module::IsGraphAsync must be used on an instantiated module".
// This CommonJS file hands piscina a Promise of the task function instead, so the ES module
// loads through import(), which a terminated thread abandons cleanly.
export = import('./worker.js').then((module) => module.default);
