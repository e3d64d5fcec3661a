// The file piscina loads in each signature-verification thread: a Promise of the task function,
// so the ES module loads through import() rather than require() (see pow/worker-entry.cts for
// the process abort that require() of an ES module risks when a starting thread is terminated).
export = import('./verify-worker.js').then((module) => module.default);
