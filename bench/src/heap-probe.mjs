// Loaded into every HTTP target with `--import` (through NODE_OPTIONS, with `--expose-gc`): on
// SIGUSR2 it collects garbage and prints the memory the process's JavaScript holds on stderr, so
// the bench can measure memory per idle session as heap after a full GC, not as resident memory
// (which stays within V8's headroom and hides small growth).
process.on("SIGUSR2", () => {
  globalThis.gc?.();
  globalThis.gc?.();
  const { heapUsed, external } = process.memoryUsage();
  process.stderr.write(`patchbay-bench-heap ${heapUsed} ${external}\n`);
});
