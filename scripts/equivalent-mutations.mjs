// Fresh mutations shown to change nothing a caller can observe, each with the reason. The
// mutation run lists a drawn mutation that matches one here (same file, same line before and
// after) as equivalent, with its reason, and leaves it out of the kill rate. An entry stays only
// while the reason holds: when the code around it changes, the entry stops matching and the
// mutation is run again.
//
// { file, original, mutated, why }: `original` and `mutated` are the trimmed line, as the run
// prints them ("original  ->  mutated").
export const EQUIVALENT = [];
