import { describe, expect, it } from "vitest";
import { createRingBuffer } from "./memory-event-store.js";

describe("createRingBuffer", () => {
  it("keeps items oldest first while below capacity", () => {
    const buffer = createRingBuffer<number>(3);
    buffer.push(1);
    buffer.push(2);
    expect(buffer.toArray()).toEqual([1, 2]);
    expect(buffer.size).toBe(2);
  });

  it("overwrites the oldest items when it overflows and counts them", () => {
    const buffer = createRingBuffer<number>(3);
    for (let item = 1; item <= 7; item += 1) buffer.push(item);
    expect(buffer.toArray()).toEqual([5, 6, 7]);
    expect(buffer.size).toBe(3);
    expect(buffer.overwritten).toBe(4);
  });

  it("visits newest first and stops when asked", () => {
    const buffer = createRingBuffer<number>(4);
    for (let item = 1; item <= 6; item += 1) buffer.push(item);
    const seen: number[] = [];
    buffer.visitNewestFirst((item) => {
      seen.push(item);
      return seen.length < 3;
    });
    expect(seen).toEqual([6, 5, 4]);
  });

  it("refuses a capacity that is not a positive integer", () => {
    expect(() => createRingBuffer(0)).toThrow(RangeError);
    expect(() => createRingBuffer(1.5)).toThrow(RangeError);
  });

  it("empties on clear", () => {
    const buffer = createRingBuffer<number>(2);
    buffer.push(1);
    buffer.clear();
    expect(buffer.toArray()).toEqual([]);
  });
});
