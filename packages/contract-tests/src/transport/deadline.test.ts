import { afterEach, describe, expect, it, vi } from "vitest";
import { allWithProgress, ContractWaitError, formatSeconds, within } from "./deadline.js";

describe("within", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("resolves as the promise does before the deadline", async () => {
    await expect(within(Promise.resolve(5), 1_000, () => "never")).resolves.toBe(5);
  });

  it("fails with a ContractWaitError describing what was awaited", async () => {
    vi.useFakeTimers();
    const failure = within(
      new Promise(() => {}),
      2_000,
      (duration) => `no reply within ${duration}`,
    ).catch((error: unknown) => error);
    vi.advanceTimersByTime(2_000);
    const error = await failure;
    expect(ContractWaitError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe("no reply within 2 s");
  });
});

describe("allWithProgress", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("waits as long as the promises keep settling, and fails once they stop", async () => {
    vi.useFakeTimers();
    const resolvers: (() => void)[] = [];
    const promises = [0, 1, 2].map(() => new Promise<void>((resolve) => resolvers.push(resolve)));
    const failure = allWithProgress(promises, 1_000, "client side: send()").catch(
      (error: unknown) => error,
    );
    vi.advanceTimersByTime(900);
    resolvers[0]?.();
    await Promise.resolve();
    vi.advanceTimersByTime(900);
    resolvers[1]?.();
    await Promise.resolve();
    vi.advanceTimersByTime(1_000);
    expect(String(await failure)).toContain(
      "client side: send(): 2 of 3 resolved, none more within 1 s",
    );
  });

  it("rejects with the first rejection", async () => {
    const failure = new Error("refused");
    await expect(allWithProgress([Promise.reject(failure)], 1_000, "x")).rejects.toBe(failure);
  });
});

describe("formatSeconds", () => {
  it("writes milliseconds as seconds", () => {
    expect([formatSeconds(2_000), formatSeconds(500), formatSeconds(1_250)]).toEqual([
      "2 s",
      "0.5 s",
      "1.25 s",
    ]);
  });
});
