// What one figure means: latency (sequential calls, p50/p99 in microseconds) and throughput (calls
// per second with `concurrency` calls kept in flight). Every call is checked to have answered.
import { readdirSync, readFileSync } from "node:fs";

export function percentile(sorted, fraction) {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.floor(fraction * sorted.length));
  return sorted[index];
}

export function median(values) {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor((sorted.length - 1) / 2)];
}

/** Sequential calls: p50 and p99 of each call's time, in microseconds. */
export async function latency(call, count) {
  for (let index = 0; index < Math.min(200, count); index++) await call(index);
  const times = new Float64Array(count);
  for (let index = 0; index < count; index++) {
    const start = process.hrtime.bigint();
    await call(index);
    times[index] = Number(process.hrtime.bigint() - start) / 1_000;
  }
  const sorted = Array.from(times).sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
}

/** `count` calls with `concurrency` in flight: calls per second. */
export async function throughput(call, count, concurrency) {
  let next = 0;
  let answered = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      await call(index);
      answered++;
    }
  };
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (answered !== count) throw new Error(`${answered} of ${count} calls answered`);
  return count / seconds;
}

/** Resident memory of a process in bytes (Linux). */
export function residentBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/** Milliseconds since `start` (a bigint from process.hrtime.bigint()). */
export function millisecondsSince(start) {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * CPU time a process has run so far, all its threads, in microseconds (Linux: the first field of
 * each `/proc/<pid>/task/<tid>/schedstat`, nanoseconds on a CPU). On a shared machine this tells the
 * work done per call apart from the time spent waiting for a core.
 */
export function cpuMicros(pid) {
  let nanos = 0;
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8");
      nanos += Number(stat.split(" ")[0]);
    }
  } catch {
    return Number.NaN;
  }
  return nanos / 1_000;
}

/** The write(2) family system calls a process made so far (`syscw` of /proc/<pid>/io), or NaN. */
export function writeCalls(pid) {
  return ioCount(pid, /^syscw: (\d+)$/m);
}

/** The read(2) family system calls a process made so far (`syscr` of /proc/<pid>/io), or NaN. */
export function readCalls(pid) {
  return ioCount(pid, /^syscr: (\d+)$/m);
}

function ioCount(pid, pattern) {
  try {
    return Number(pattern.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}
