// Benchmarks print a ratio against a baseline measured in the same run (absolute times are noisy on 2 cores).
// Each *.bench.ts file is a vitest file that calls `compare` and/or `report`; `npm run bench` runs them all.

export interface CompareOptions {
  /** Runs per side after warm-up; the median is compared. */
  runs?: number;
  warmup?: number;
  /** Upper bound on candidate/baseline the benchmark promises, if any: the line ends `ok` or `MISSED`. */
  target?: number;
}

export interface CompareResult {
  name: string;
  baselineMs: number;
  candidateMs: number;
  ratio: number;
  target?: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Interleaves baseline and candidate runs so that machine noise hits both sides alike. */
export async function compare(
  name: string,
  baseline: { label: string; run: () => unknown | Promise<unknown> },
  candidate: { label: string; run: () => unknown | Promise<unknown> },
  { runs = 15, warmup = 3, target }: CompareOptions = {},
): Promise<CompareResult> {
  for (let i = 0; i < warmup; i++) {
    await baseline.run();
    await candidate.run();
  }
  const b: number[] = [];
  const c: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await baseline.run();
    b.push(performance.now() - t);
    t = performance.now();
    await candidate.run();
    c.push(performance.now() - t);
  }
  const result: CompareResult = {
    name,
    baselineMs: median(b),
    candidateMs: median(c),
    ratio: median(c) / Math.max(median(b), 1e-6),
  };
  if (target !== undefined) result.target = target;
  report(
    name,
    `${candidate.label} ${fmt(result.candidateMs)} vs ${baseline.label} ${fmt(result.baselineMs)}`,
    result.ratio,
    target,
  );
  return result;
}

/** Prints one benchmark line in the shared format: `BENCH name: detail → ratio R (target ≤ T) ok|MISSED`. */
export function report(name: string, detail: string, ratio: number, target?: number): void {
  const verdict =
    target === undefined ? '' : ratio <= target ? ` (target ≤ ${target}) ok` : ` (target ≤ ${target}) MISSED`;
  console.log(`BENCH ${name}: ${detail} → ratio ${ratio.toFixed(2)}${verdict}`);
}

export const fmt = (ms: number) =>
  ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(1)} µs`;
