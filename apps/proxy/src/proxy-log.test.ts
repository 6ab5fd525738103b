import { describe, expect, it } from "vitest";
import { createBatchedWriter } from "./proxy-log.js";

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("createBatchedWriter", () => {
  it("writes the lines of one turn together, in order, once the turn ends", async () => {
    const writes: string[] = [];
    const writer = createBatchedWriter((text) => writes.push(text));
    writer.write("a\n");
    writer.write("b\n");
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(["a\nb\n"]);
    writer.write("c\n");
    await nextTurn();
    expect(writes).toEqual(["a\nb\n", "c\n"]);
  });

  it("writes what is gathered at once on flush (the process exits), and nothing twice", async () => {
    const writes: string[] = [];
    const writer = createBatchedWriter((text) => writes.push(text));
    writer.write("last\n");
    writer.flush();
    expect(writes).toEqual(["last\n"]);
    await nextTurn();
    expect(writes).toEqual(["last\n"]);
  });
});
