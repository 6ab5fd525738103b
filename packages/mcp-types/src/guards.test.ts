import { describe, expect, it } from "vitest";
import { isInputRequiredResult, v2025_11_25 } from "./index.js";

describe("result guards", () => {
  it("tell a CreateTaskResult from a CallToolResult", () => {
    const task = {
      task: { taskId: "t", status: "working", createdAt: "x", lastUpdatedAt: "x", ttl: 1 },
    };
    expect(v2025_11_25.isCreateTaskResult(task)).toBe(true);
    expect(v2025_11_25.isCreateTaskResult({ content: [] })).toBe(false);
    expect(v2025_11_25.isCreateTaskResult(null)).toBe(false);
  });

  it("tell an input_required result from a complete one", () => {
    expect(isInputRequiredResult({ resultType: "input_required", requestState: "s" })).toBe(true);
    expect(isInputRequiredResult({ resultType: "complete", content: [] })).toBe(false);
    expect(isInputRequiredResult({ content: [] })).toBe(false);
  });
});
