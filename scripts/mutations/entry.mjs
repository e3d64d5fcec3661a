// One fixed mutation, as the lists write it: the tests are named without their .test.js.

export const m = (id, file, find, replace, tests, why) => ({ id, file, find, replace, tests: tests.map((t) => `${t}.test.js`), why });
