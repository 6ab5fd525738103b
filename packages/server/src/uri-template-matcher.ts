/**
 * A tiny matching machine for URI templates: a program of instructions run as a Pike VM (Thompson's
 * construction with ordered threads), which gives the same captures as a backtracking regular
 * expression of the same shape but visits each (instruction, character) pair at most once, so a URI
 * is matched in time proportional to program size × URI length whatever the template.
 */

/** One instruction of a {@link MatchProgram}. */
export type MatchInstruction =
  /** Consume one UTF-16 code unit equal to `code`. */
  | { readonly op: "char"; readonly code: number }
  /** Consume one code unit that is not one of `excluded`. */
  | { readonly op: "class"; readonly excluded: string }
  /** Try `first`, and when that fails, `second` (the priority order of a regular expression). */
  | { readonly op: "split"; first: number; second: number }
  /** Continue at `to`. */
  | { readonly op: "jump"; to: number }
  /** Record the current position in capture slot `slot`. */
  | { readonly op: "save"; readonly slot: number }
  /** Succeed when the whole input is consumed. */
  | { readonly op: "match" };

/** A compiled pattern: instructions, and how many capture groups they save. */
export interface MatchProgram {
  readonly instructions: readonly MatchInstruction[];
  readonly groups: number;
}

/** Builds a {@link MatchProgram} piece by piece, like the regular expression it stands for. */
export class MatchProgramBuilder {
  readonly #instructions: MatchInstruction[] = [];
  #groups = 0;

  /** Literal text, code unit by code unit. */
  literal(text: string): void {
    for (let index = 0; index < text.length; index += 1) {
      this.#instructions.push({ op: "char", code: text.charCodeAt(index) });
    }
  }

  /** `(class*)` (greedy) or `(class*?)` (lazy) as a capture group; returns the group's number. */
  capture(excluded: string, lazy: boolean): number {
    const group = this.#groups;
    this.#groups += 1;
    this.#instructions.push({ op: "save", slot: group * 2 });
    const loop = this.#instructions.length;
    const split: MatchInstruction = { op: "split", first: 0, second: 0 };
    this.#instructions.push(split, { op: "class", excluded }, { op: "jump", to: loop });
    const after = this.#instructions.length;
    if (lazy) {
      split.first = after;
      split.second = loop + 1;
    } else {
      split.first = loop + 1;
      split.second = after;
    }
    this.#instructions.push({ op: "save", slot: group * 2 + 1 });
    return group;
  }

  /** `(?:body)?` (greedy): what `body` emits is optional. */
  optional(body: () => void): void {
    const split: MatchInstruction = { op: "split", first: 0, second: 0 };
    this.#instructions.push(split);
    split.first = this.#instructions.length;
    body();
    split.second = this.#instructions.length;
  }

  /** The finished program, anchored at both ends. */
  build(): MatchProgram {
    return { instructions: [...this.#instructions, { op: "match" }], groups: this.#groups };
  }
}

// The saves a thread made, newest first: sharing the older ones, a save costs one small object
// instead of a copy of every slot.
interface Saved {
  readonly slot: number;
  readonly position: number;
  readonly previous: Saved | undefined;
}

interface Thread {
  readonly pc: number;
  readonly saved: Saved | undefined;
}

/**
 * Runs `program` over all of `input` (anchored at both ends). Returns each group's captured text
 * (`undefined` for a group that took no part), or `undefined` when the input does not match.
 * `onStep`, when given, is called once per thread step (tests count them).
 */
export function runMatchProgram(
  program: MatchProgram,
  input: string,
  onStep?: () => void,
): (string | undefined)[] | undefined {
  const { instructions } = program;
  // The step at which each instruction was last added, so a thread is added once per position.
  const addedAt = new Array<number>(instructions.length).fill(-1);
  const add = (list: Thread[], pc: number, saved: Saved | undefined, position: number): void => {
    if (addedAt[pc] === position) return;
    addedAt[pc] = position;
    const instruction = instructions[pc] as MatchInstruction;
    switch (instruction.op) {
      case "jump":
        add(list, instruction.to, saved, position);
        return;
      case "split":
        add(list, instruction.first, saved, position);
        add(list, instruction.second, saved, position);
        return;
      case "save":
        add(list, pc + 1, { slot: instruction.slot, position, previous: saved }, position);
        return;
      default:
        list.push({ pc, saved });
    }
  };

  let current: Thread[] = [];
  add(current, 0, undefined, 0);
  for (let position = 0; current.length > 0; position += 1) {
    const next: Thread[] = [];
    const code = position < input.length ? input.charCodeAt(position) : -1;
    for (const thread of current) {
      onStep?.();
      const instruction = instructions[thread.pc] as MatchInstruction;
      if (instruction.op === "match") {
        // Threads are in priority order, so the first to match is the one a regex would pick.
        if (position === input.length) return capturesOf(thread.saved, input, program.groups);
        continue;
      }
      if (code < 0) continue;
      const consumes =
        instruction.op === "char"
          ? instruction.code === code
          : instruction.op === "class" && !instruction.excluded.includes(input.charAt(position));
      if (consumes) add(next, thread.pc + 1, thread.saved, position + 1);
    }
    current = next;
  }
  return undefined;
}

function capturesOf(
  saved: Saved | undefined,
  input: string,
  groups: number,
): (string | undefined)[] {
  // The newest save of a slot is its value.
  const slots = new Array<number | undefined>(groups * 2).fill(undefined);
  for (let node = saved; node !== undefined; node = node.previous) {
    slots[node.slot] ??= node.position;
  }
  const captures: (string | undefined)[] = [];
  for (let group = 0; group < groups; group += 1) {
    const start = slots[group * 2];
    const end = slots[group * 2 + 1];
    captures.push(start === undefined || end === undefined ? undefined : input.slice(start, end));
  }
  return captures;
}
