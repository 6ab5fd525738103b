// The tables `pnpm bench` prints: figures per target (medians of the repetitions, ratios taken within
// each repetition), and the targets with whether this run meets them.
import { median } from "./measure.mjs";

export const format = (value, digits = 0) =>
  typeof value === "string"
    ? value
    : Number.isFinite(value)
      ? value.toLocaleString("en-US", { maximumFractionDigits: digits })
      : "–";

export function table(title, headers, rows) {
  console.log(`\n### ${title}\n`);
  console.log(`| ${headers.join(" | ")} |`);
  console.log(`| ${headers.map(() => "---").join(" | ")} |`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
}

/** Figures recorded per target name, one value per repetition. */
export class Results {
  #figures = new Map();

  record(name, figure, value) {
    if (!this.#figures.has(name)) this.#figures.set(name, {});
    const figures = this.#figures.get(name);
    figures[figure] ??= [];
    figures[figure].push(value);
  }

  has(name) {
    return this.#figures.has(name);
  }

  values(name, figure) {
    return this.#figures.get(name)?.[figure] ?? [];
  }

  /** The median of a figure, or the first text recorded for it (a failure such as "no answer"). */
  median(name, figure) {
    const values = this.values(name, figure);
    return typeof values[0] === "string" ? values[0] : median(values);
  }

  /** The median over repetitions of `name`'s figure divided by `baseline`'s in the same repetition. */
  ratio(name, baseline, figure, combine = (a, b) => a / b) {
    const base = this.values(baseline, figure);
    return median(this.values(name, figure).map((value, index) => combine(value, base[index])));
  }
}

export function ratioRows(results, targets, extraColumns = []) {
  const baseline = targets.find((target) => target.baseline).name;
  return targets
    .filter((target) => results.has(target.name))
    .map((target) => {
      const m = (key) => results.median(target.name, key);
      return [
        target.name,
        format(m("p50")),
        format(m("p99")),
        format(m("t1")),
        format(m("t16")),
        format(m("t64")),
        `${format(results.ratio(target.name, baseline, "t16") * 100)}%`,
        `${format(results.ratio(target.name, baseline, "t64") * 100)}%`,
        format(m("startup")),
        format(m("rss") / 1048576, 1),
        ...extraColumns.map((column) => column(m)),
      ];
    });
}

const yes = (holds) => (holds === undefined ? "not measured" : holds ? "yes" : "no");
const percent = (value) => `${format(value * 100)}%`;

/** The targets against this run: [target, goal, this run, holds]. */
export function verdictRows(results, names) {
  const { server, gateway, leanRelay, rawHttp, httpServer, sdkHttp, proxy } = names;
  const microseconds = (value) => `${format(value)} µs`;
  const times = (value) => `${format(value, value < 10 ? 2 : 1)}x`;
  const kib = (value) => `${format(value, 1)} KiB`;
  const atMost = (limit) => (value) => value <= limit;
  const atLeast = (limit) => (value) => value >= limit;
  const heapKib = (name) => results.median(name, "heapPerSession") / 1024;
  // [target, goal, value, how to show it, whether it holds]
  const checks = [
    [
      "stdio gateway: added p50 over a direct stdio call",
      "≤ 50 µs",
      results.ratio(gateway, server, "p50", (a, b) => a - b),
      microseconds,
      atMost(50),
    ],
    [
      "stdio gateway: calls/s at 16 in flight vs direct",
      "≥ 50%",
      results.ratio(gateway, server, "t16"),
      percent,
      atLeast(0.5),
    ],
    [
      "stdio gateway: added p50 vs a lean relay's added p50",
      "≤ 1.5x",
      median(
        results
          .values(gateway, "p50")
          .map(
            (value, index) =>
              (value - results.values(server, "p50")[index]) /
              (results.values(leanRelay, "p50")[index] - results.values(server, "p50")[index]),
          ),
      ),
      times,
      atMost(1.5),
    ],
    [
      "stdio gateway: calls/s at 16 in flight vs a lean relay",
      "≥ 100%",
      results.ratio(gateway, leanRelay, "t16"),
      percent,
      atLeast(1),
    ],
    [
      "Streamable HTTP server vs raw node:http echo, 64 in flight",
      "≥ 50%",
      results.ratio(httpServer, rawHttp, "t64"),
      percent,
      atLeast(0.5),
    ],
    [
      "Streamable HTTP server vs the SDK's server, 64 in flight",
      "≥ 5x",
      results.ratio(httpServer, sdkHttp, "t64"),
      times,
      atLeast(5),
    ],
    [
      "Streamable HTTP server vs the SDK's server: the server's own CPU per call, 64 in flight",
      "≥ 5x",
      results.ratio(sdkHttp, httpServer, "cpu64"),
      times,
      atLeast(5),
    ],
    [
      "HTTP proxy vs raw node:http echo, 64 in flight",
      "≥ 50%",
      results.ratio(proxy, rawHttp, "t64"),
      percent,
      atLeast(0.5),
    ],
    [
      "idle session, Streamable HTTP server (heap after GC)",
      "≤ 25 KB",
      heapKib(httpServer),
      kib,
      atMost(25),
    ],
    ["idle session, HTTP proxy (heap after GC)", "≤ 25 KB", heapKib(proxy), kib, atMost(25)],
  ];
  const rows = checks.map(([label, goal, value, show, holds]) =>
    Number.isFinite(value)
      ? [label, goal, show(value), yes(holds(value))]
      : [label, goal, "–", yes()],
  );
  for (const [hop, direct, via] of [
    ["gateway", names.largeStdio, names.largeGateway],
    ["proxy", names.largeHttp, names.largeProxy],
  ]) {
    for (const [mb, goal] of [
      [10, 1.5],
      [50, 3],
    ]) {
      const label = `${mb} MB result through the ${hop} vs direct`;
      const figures = [results.median(via, `mb${mb}`), results.median(direct, `mb${mb}`)];
      const failure = figures.find((value) => typeof value === "string");
      const ratio = figures[0] / figures[1];
      if (failure !== undefined) rows.push([label, `≤ ${goal}x`, failure, "no"]);
      else if (!Number.isFinite(ratio)) rows.push([label, `≤ ${goal}x`, "–", yes()]);
      else rows.push([label, `≤ ${goal}x`, times(ratio), yes(ratio <= goal)]);
    }
  }
  return rows;
}
