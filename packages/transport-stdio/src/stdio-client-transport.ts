import { type ChildProcess, spawn as nodeSpawn } from "node:child_process";
import { basename } from "node:path";
import {
  type Frame,
  type FrameInfo,
  type TransportCloseEvent,
  TransportError,
  TransportEvents,
  type Unsubscribe,
} from "@patchbay/jsonrpc-core";
import { ChildExit } from "./child-exit.js";
import { signalChild, trackChild } from "./child-registry.js";
import { getDefaultEnvironment } from "./default-environment.js";
import { describeSpawnFailure } from "./spawn-failure.js";
import { createPrefixedStderrHandler, createStderrLineSplitter } from "./stderr-handler.js";
import { StderrTail } from "./stderr-tail.js";
import {
  DEFAULT_GRACE_PERIOD_MS,
  type SpawnFunction,
  type StdioClientTransport,
  type StdioClientTransportOptions,
  type StdioExitDetails,
} from "./stdio-client-options.js";
import { FrameReader, FrameWriter, readRelatedRequest } from "./stdio-framing.js";
import { prepareCommand } from "./windows-command.js";

/**
 * The client side of the stdio transport: spawns a server process and speaks newline-delimited
 * JSON-RPC over its stdin and stdout. `start()` spawns it (and rejects with a TransportError naming
 * the command when that fails); `close()` ends its stdin, then sends SIGTERM and finally SIGKILL,
 * each after the grace period, and resolves once it has exited. The close event's `details` are
 * {@link StdioExitDetails}.
 */
export function createStdioClientTransport(
  options: StdioClientTransportOptions,
): StdioClientTransport {
  return new ChildProcessTransport(options);
}

type State = "new" | "starting" | "running" | "closed";

class ChildProcessTransport implements StdioClientTransport {
  readonly name: string;
  readonly #options: StdioClientTransportOptions;
  readonly #gracePeriodMs: number;
  readonly #processGroup: boolean;
  readonly #events = new TransportEvents();
  #state: State = "new";
  #child: ChildProcess | undefined;
  #reader: FrameReader | undefined;
  #writer: FrameWriter | undefined;
  #starting: Promise<void> | undefined;
  #closeRequested = false;
  #failure: TransportError | undefined;
  readonly #exit = new ChildExit();
  readonly #stderrTail = new StderrTail();
  #closeEmitted: Promise<void>;
  #resolveCloseEmitted!: () => void;

  constructor(options: StdioClientTransportOptions) {
    this.#options = options;
    this.name = options.name ?? basename(options.command);
    this.#gracePeriodMs = options.gracePeriodMs ?? DEFAULT_GRACE_PERIOD_MS;
    this.#processGroup = options.processGroup ?? process.platform !== "win32";
    this.#closeEmitted = new Promise((resolve) => {
      this.#resolveCloseEmitted = resolve;
    });
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  start(): Promise<void> {
    if (this.#state === "closed" && this.#starting === undefined) return Promise.resolve();
    this.#starting ??= this.#spawn();
    return this.#starting;
  }

  // Not async: a running transport hands the writer's own promise back (every request a gateway
  // forwards passes here; an async function would add a promise and its ticks per frame).
  send(frame: Frame): Promise<void> {
    if (this.#state === "starting" && this.#starting !== undefined) {
      return this.#starting.then(() => this.#sendNow(frame));
    }
    return this.#sendNow(frame);
  }

  #sendNow(frame: Frame): Promise<void> {
    if (this.#state !== "running" || this.#closeRequested || this.#writer === undefined) {
      return Promise.reject(
        this.#failure ?? new TransportError(`Cannot send to "${this.name}": ${this.#stateText()}`),
      );
    }
    return this.#writer.send(frame);
  }

  async close(): Promise<void> {
    if (this.#state === "new") {
      this.#emitClose({ initiator: "local", details: this.#details() });
      return;
    }
    if (this.#state === "starting") await this.#starting?.catch(() => {});
    if (this.#state !== "closed") {
      this.#closeRequested = true;
      void this.#terminate();
    }
    await this.#closeEmitted;
  }

  onFrame(listener: (frame: Frame, info: FrameInfo) => void): Unsubscribe {
    return this.#events.onFrame(listener);
  }

  onError(listener: (error: Error) => void): Unsubscribe {
    return this.#events.onError(listener);
  }

  onClose(listener: (event: TransportCloseEvent) => void): Unsubscribe {
    return this.#events.onClose(listener);
  }

  #spawn(): Promise<void> {
    this.#state = "starting";
    // Frames only arrive once the reader is attached, after the spawn; nothing needs holding.
    this.#events.start();
    const options = this.#options;
    const stderr = options.stderr ?? createPrefixedStderrHandler(this.name);
    const spawn = options.spawn ?? (nodeSpawn as SpawnFunction);
    let child: ChildProcess;
    try {
      const env = {
        ...(options.inheritEnvironment ? process.env : getDefaultEnvironment()),
        ...options.env,
      };
      // Windows runs `npx` (npx.cmd) and other batch shims only through cmd.exe.
      const { command, args, windowsVerbatimArguments } = prepareCommand(
        options.command,
        options.args ?? [],
        { platform: process.platform, env, cwd: options.cwd ?? process.cwd() },
      );
      child = spawn(command, args, {
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        env,
        stdio: ["pipe", "pipe", typeof stderr === "function" ? "pipe" : stderr],
        detached: this.#processGroup,
        windowsHide: true,
        ...(windowsVerbatimArguments ? { windowsVerbatimArguments } : {}),
      });
    } catch (error) {
      return Promise.reject(this.#startFailed(error));
    }
    this.#child = child;
    const stdin = child.stdin;
    const stdout = child.stdout;
    if (stdin === null || stdout === null) {
      child.kill("SIGKILL");
      return Promise.reject(this.#startFailed(new Error("the child has no stdin or stdout pipe")));
    }
    this.#writer = new FrameWriter(stdin, () => `the stdin of "${this.name}"`);
    this.#reader = new FrameReader(
      stdout,
      {
        onFrame: (frame, info) => {
          if (!this.#closeRequested) this.#events.emitFrame(frame, readRelatedRequest(frame, info));
        },
        onError: (error) => this.#events.emitError(error),
        onEnd: (error) => this.#onStdoutEnd(error),
      },
      { maxLineBytes: options.maxLineBytes, relayLargeResults: options.relayLargeResults },
    );
    if (typeof stderr === "function" && child.stderr !== null) {
      const splitter = createStderrLineSplitter((line) => {
        this.#stderrTail.push(line);
        stderr(line);
      });
      child.stderr.on("data", (chunk: Uint8Array) => splitter.push(chunk));
      child.stderr.on("end", () => splitter.end());
      child.stderr.on("error", () => {});
    }
    stdin.on("error", (error) => this.#onStdinError(error));
    return new Promise<void>((resolve, reject) => {
      child.once("spawn", () => {
        if (this.#state !== "starting") return;
        this.#state = "running";
        if (child.pid !== undefined) {
          const untrack = trackChild(child, this.#processGroup);
          child.once("exit", untrack);
        }
        this.#reader?.attach();
        resolve();
      });
      child.on("error", (error) => {
        if (this.#state === "starting") reject(this.#startFailed(error));
        else this.#events.emitError(this.#processError(error));
      });
      child.once("exit", (exitCode, signal) => this.#onExit(exitCode, signal));
      child.once("close", () => this.#finish());
    });
  }

  #startFailed(error: unknown): TransportError {
    const failure = describeSpawnFailure(error, this.name, this.#options);
    this.#failure = failure;
    this.#events.emitError(failure);
    this.#emitClose({ initiator: "error", error: failure, details: this.#details() });
    return failure;
  }

  #processError(error: Error): TransportError {
    return new TransportError(`Process "${this.name}" failed: ${error.message}`, { cause: error });
  }

  #onStdinError(error: Error): void {
    const writer = this.#writer;
    const failure = writer?.fail(writer.writeError(error));
    if (failure === undefined || this.#state === "closed" || this.#closeRequested) return;
    this.#failure ??= failure;
    this.#events.emitError(failure);
    void this.#terminate();
  }

  #onStdoutEnd(error?: Error): void {
    if (error !== undefined && this.#state !== "closed") {
      this.#failure ??= new TransportError(`Cannot read from "${this.name}": ${error.message}`, {
        cause: error,
      });
      this.#events.emitError(this.#failure);
    }
    // No more frames can come: make sure the child goes too (at once if it is exiting anyway).
    if (this.#state === "running") void this.#terminate();
  }

  #onExit(exitCode: number | null, signal: NodeJS.Signals | null): void {
    this.#exit.record({ exitCode, signal });
    // 'close' follows once stdout and stderr are drained. A grandchild holding them open must not
    // keep the transport alive: once they stay quiet for the grace period, give up on them.
    const child = this.#child;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const giveUp = () => {
      if (this.#state === "closed") return;
      // After the exit only the group may be signalled (grandchildren holding the pipes).
      if (child !== undefined && this.#processGroup) signalChild(child, true, "SIGKILL");
      child?.stdout?.destroy();
      child?.stderr?.destroy();
      this.#finish();
    };
    const restart = () => {
      clearTimeout(timer);
      timer = setTimeout(giveUp, this.#gracePeriodMs);
    };
    restart();
    child?.stdout?.on("data", restart);
    child?.stderr?.on("data", restart);
    child?.once("close", () => {
      clearTimeout(timer);
      child.stdout?.off("data", restart);
      child.stderr?.off("data", restart);
    });
  }

  /** Ends stdin, then SIGTERM, then SIGKILL, each after the grace period; resolves on exit. */
  async #terminate(): Promise<void> {
    const child = this.#child;
    if (child?.pid === undefined) {
      this.#writer?.end();
      return;
    }
    const processGroup = this.#processGroup;
    await this.#exit.stop(
      (signal) => signalChild(child, processGroup, signal),
      this.#gracePeriodMs,
      () => this.#writer?.end(),
    );
  }

  /** The child exited and its pipes are drained (or given up on): emit the close event. */
  #finish(): void {
    if (this.#state === "closed") return;
    this.#reader?.detach();
    const details = this.#details();
    if (this.#closeRequested) {
      this.#emitClose({ initiator: "local", details });
      return;
    }
    if (this.#failure !== undefined) {
      this.#emitClose({ initiator: "error", error: this.#failure, details });
      return;
    }
    // A clean exit, or a child we had to stop because it closed its stdout: the peer went away.
    if (details.exitCode === 0 || this.#exit.signalled) {
      this.#emitClose({ initiator: "remote", details });
      return;
    }
    const failure = new TransportError(`Process "${this.name}" ${this.#exitText(details)}`);
    this.#failure = failure;
    this.#events.emitError(failure);
    this.#emitClose({ initiator: "error", error: failure, details });
  }

  #emitClose(event: TransportCloseEvent): void {
    if (this.#state === "closed") return;
    this.#state = "closed";
    this.#writer?.fail(
      this.#failure ?? new TransportError(`Cannot send to "${this.name}": the transport is closed`),
    );
    this.#events.emitClose(event);
    this.#resolveCloseEmitted();
  }

  #details(): StdioExitDetails {
    return {
      command: this.#options.command,
      pid: this.#child?.pid,
      exitCode: this.#exit.status?.exitCode ?? null,
      signal: this.#exit.status?.signal ?? null,
      stderrTail: this.#stderrTail.lines,
    };
  }

  #exitText(details: StdioExitDetails): string {
    if (details.signal !== null) return `was killed by ${details.signal}`;
    return `exited with code ${details.exitCode}`;
  }

  #stateText(): string {
    if (this.#state === "new") return "the transport is not started";
    return "the transport is closed";
  }
}
