import { describe, expect, it } from "vitest";
import { type SignalTarget, signalChild } from "./child-registry.js";

function fakeChild(exited: boolean) {
  const handleSignals: string[] = [];
  const child: SignalTarget = {
    pid: 4242,
    exitCode: exited ? 0 : null,
    signalCode: null,
    kill(signal) {
      handleSignals.push(signal);
      return true;
    },
  };
  return { child, handleSignals };
}

function recordingKill(groupExists: boolean) {
  const calls: [number, string][] = [];
  const kill = (pid: number, signal: NodeJS.Signals) => {
    calls.push([pid, signal]);
    if (pid < 0 && !groupExists) throw Object.assign(new Error("ESRCH"), { code: "ESRCH" });
  };
  return { calls, kill };
}

describe("signalChild", () => {
  it("signals the process group while it exists, even after the leader exited", () => {
    const { child, handleSignals } = fakeChild(true);
    const { calls, kill } = recordingKill(true);
    expect(signalChild(child, true, "SIGKILL", kill)).toBe(true);
    expect(calls).toEqual([[-4242, "SIGKILL"]]);
    expect(handleSignals).toEqual([]);
  });

  it("does not fall back to the bare pid once the child exited and its group is gone", () => {
    const { child, handleSignals } = fakeChild(true);
    const { calls, kill } = recordingKill(false);
    expect(signalChild(child, true, "SIGKILL", kill)).toBe(false);
    expect(calls).toEqual([[-4242, "SIGKILL"]]);
    expect(handleSignals).toEqual([]);
  });

  it("falls back to the child's own handle while it has not exited", () => {
    const { child, handleSignals } = fakeChild(false);
    const { calls, kill } = recordingKill(false);
    expect(signalChild(child, true, "SIGTERM", kill)).toBe(true);
    expect(calls).toEqual([[-4242, "SIGTERM"]]);
    expect(handleSignals).toEqual(["SIGTERM"]);
  });

  it("without a process group, signals only through the handle, and nothing after the exit", () => {
    const running = fakeChild(false);
    const exited = fakeChild(true);
    const { calls, kill } = recordingKill(true);
    expect(signalChild(running.child, false, "SIGTERM", kill)).toBe(true);
    expect(signalChild(exited.child, false, "SIGTERM", kill)).toBe(false);
    expect(calls).toEqual([]);
    expect(running.handleSignals).toEqual(["SIGTERM"]);
    expect(exited.handleSignals).toEqual([]);
  });
});
