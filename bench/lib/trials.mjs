// Interleaved trials: on a noisy machine, the two designs must share the same noise. Each round
// runs every design once, alternating which goes first, so neither always runs in the other's
// wake (a garbage collection, a CPU-frequency step, a neighbour process).

/**
 * Runs `rounds` rounds of every design; `designs` maps a name to an async function returning
 * one sample (a number) or several (an array). The first `warmup` rounds are run and dropped.
 *
 * @example
 * const samples = await interleave({ sandbox: coldSandbox, worker: coldWorker }, 30);
 * median(samples.sandbox) / median(samples.worker)
 */
export async function interleave(designs, rounds, { warmup = 1 } = {}) {
  const names = Object.keys(designs);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < warmup + rounds; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const sample = await designs[name]();
      if (round >= warmup) samples[name].push(...[sample].flat());
    }
  }
  return samples;
}

/** Milliseconds an async function takes, by the monotonic clock. */
export async function timed(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}
