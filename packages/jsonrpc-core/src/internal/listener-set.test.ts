import { describe, expect, it } from "vitest";
import { ListenerSet } from "./listener-set.js";

describe("ListenerSet", () => {
  it("calls the listeners subscribed when an event starts, even if one unsubscribes another", () => {
    const set = new ListenerSet<[string]>();
    const calls: string[] = [];
    let stopSecond = (): void => {};
    set.add((value) => {
      calls.push(`first ${value}`);
      stopSecond();
    });
    stopSecond = set.add((value) => calls.push(`second ${value}`));
    set.add((value) => {
      calls.push(`third ${value}`);
      set.add((late) => calls.push(`late ${late}`));
    });
    set.emit("a");
    expect(calls).toEqual(["first a", "second a", "third a"]);
    calls.length = 0;
    set.emit("b");
    expect(calls).toEqual(["first b", "third b", "late b"]);
  });

  it("removes one of a function added twice per unsubscribe, and nothing on a second call", () => {
    const set = new ListenerSet<[number]>();
    const seen: number[] = [];
    const listener = (value: number) => seen.push(value);
    const first = set.add(listener);
    set.add(listener);
    first();
    first();
    set.emit(1);
    expect(seen).toEqual([1]);
    expect(set.size).toBe(1);
  });

  it("ignores an unsubscribe from before clear, so a listener added after stays", () => {
    const set = new ListenerSet<[number]>();
    const seen: number[] = [];
    const listener = (value: number) => seen.push(value);
    const stale = set.add(listener);
    set.clear();
    set.add(listener);
    stale();
    set.emit(7);
    expect(seen).toEqual([7]);
  });

  it("hands what a listener throws to a set of error listeners as an Error, and calls the rest", () => {
    const errors = new ListenerSet<[Error]>();
    const reported: Error[] = [];
    errors.add((error) => reported.push(error));
    const set = new ListenerSet<[number, string]>(errors);
    const seen: string[] = [];
    set.add(() => {
      throw "not an Error";
    });
    set.add((value, text) => seen.push(`${value} ${text}`));
    set.emit(0, "");
    expect(seen).toEqual(["0 "]);
    expect(reported.map((error) => [error instanceof Error, error.message])).toEqual([
      [true, "not an Error"],
    ]);
  });
});
