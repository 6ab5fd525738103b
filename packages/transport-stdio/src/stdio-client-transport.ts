import { type ChildProcess, spawn as nodeSpawn, type SpawnOptions } from "node:child_process";
import { existsSync } from "node:fs";
import { basename } from "node:path";
import {
  type Frame,
  type FrameInfo,
  type Transport,
  type TransportCloseEvent,
  TransportError,
  type Unsubscribe,
} from "@patchbay/jsonrpc-core";
import { killQuietly, trackChild } from "./child-registry.js";
import { getDefaultEnvironment } from "./default-environment.js";
import { FrameReader } from "./frame-reader.js";
import { FrameWriter } from "./frame-writer.js";
import { ListenerSet, toError } from "./listener-set.js";
import { createPrefixedStderrHandler, createStderrLineSplitter } from "./stderr-handler.js";

/** The subset of `child_process.spawn` the transport uses; pass your own to observe or fake it. */
export type SpawnFunction = (
  command: string,
  args: readonly string[],
  options: SpawnOptions,
) => ChildProcess;

/** Options of {@link createStdioClientTransport}. */
export interface StdioClientTransportOptions {
  /** The executable to run (looked up in the child's `PATH`). */
  readonly command: string;
  /** Its arguments. */
  readonly args?: readonly string[];
  /** Its working directory; default this process's. */
  readonly cwd?: string;
  /** Variables added to the child's environment (on top of the safe default set). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Give the child this process's whole environment instead of the safe default set
   * (`getDefaultEnvironment()`). Default false: secrets in this process's environment stay here.
   */
  readonly inheritEnvironment?: boolean;
  /** The server's name, used in stderr prefixes and error messages; default the command's basename. */
  readonly name?: string;
  /**
   * What happens to the child's stderr: a function that receives each line, `"inherit"` (share this
   * process's stderr) or `"ignore"`. Default: each line goes to this process's stderr prefixed with
   * `[name] `. Piped stderr is always read, so a chatty child never blocks on it.
   */
  readonly stderr?: ((line: string) => void) | "inherit" | "ignore";
  /**
   * How long `close()` waits after ending the child's stdin before SIGTERM, and after SIGTERM before
   * SIGKILL, in milliseconds. Default 2,000.
   */
  readonly gracePeriodMs?: number;
  /** Longest line accepted, in UTF-8 bytes; longer lines are reported and skipped. Default 16 MiB. */
  readonly maxLineBytes?: number;
  /**
   * Run the child in its own process group and signal the whole group, so that grandchildren (the
   * real server behind `npx` or a shell script) stop too. Default true, except on Windows.
   */
  readonly processGroup?: boolean;
  /** Replaces `child_process.spawn` (tests use it to record pids). */
  readonly spawn?: SpawnFunction;
}

/** What the close event of a stdio client transport carries in `details`. */
export type StdioExitDetails = {
  /** The command that was run. */
  readonly command: string;
  /** The child's process id, when it started. */
  readonly pid: number | undefined;
  /** Its exit code, or null when a signal ended it (or it never started). */
  readonly exitCode: number | null;
  /** The signal that ended it, or null. */
  readonly signal: NodeJS.Signals | null;
};

/** A stdio client transport: a Transport plus facts about the child process. */
export interface StdioClientTransport extends Transport {
  /** The server's name, as used in stderr prefixes and errors. */
  readonly name: string;
  /** The child's process id once started. */
  readonly pid: number | undefined;
}

/** Default {@link StdioClientTransportOptions.gracePeriodMs}. */
export const DEFAULT_GRACE_PERIOD_MS = 2_000;

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
  readonly #errorListeners = new ListenerSet<[Error]>();
  readonly #frameListeners = new ListenerSet<[Frame, FrameInfo]>((error) =>
    this.#errorListeners.emit(toError(error)),
  );
  readonly #closeListeners = new ListenerSet<[TransportCloseEvent]>((error) =>
    this.#errorListeners.emit(toError(error)),
  );
  #state: State = "new";
  #child: ChildProcess | undefined;
  #reader: FrameReader | undefined;
  #writer: FrameWriter | undefined;
  #starting: Promise<void> | undefined;
  #terminating: Promise<void> | undefined;
  #closeRequested = false;
  #signalled = false;
  #failure: TransportError | undefined;
  #exit: { exitCode: number | null; signal: NodeJS.Signals | null } | undefined;
  #onExited: (() => void)[] = [];
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

  async send(frame: Frame): Promise<void> {
    if (this.#state === "starting") await this.#starting;
    if (this.#state !== "running" || this.#closeRequested || this.#writer === undefined) {
      throw (
        this.#failure ?? new TransportError(`Cannot send to "${this.name}": ${this.#stateText()}`)
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
    return this.#frameListeners.add(listener);
  }

  onError(listener: (error: Error) => void): Unsubscribe {
    return this.#errorListeners.add(listener);
  }

  onClose(listener: (event: TransportCloseEvent) => void): Unsubscribe {
    return this.#closeListeners.add(listener);
  }

  #spawn(): Promise<void> {
    this.#state = "starting";
    const options = this.#options;
    const stderr = options.stderr ?? createPrefixedStderrHandler(this.name);
    const spawn = options.spawn ?? (nodeSpawn as SpawnFunction);
    let child: ChildProcess;
    try {
      child = spawn(options.command, options.args ?? [], {
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        env: {
          ...(options.inheritEnvironment ? process.env : getDefaultEnvironment()),
          ...options.env,
        },
        stdio: ["pipe", "pipe", typeof stderr === "function" ? "pipe" : stderr],
        detached: this.#processGroup,
        windowsHide: true,
      });
    } catch (error) {
      return Promise.reject(this.#startFailed(error));
    }
    this.#child = child;
    const stdin = child.stdin;
    const stdout = child.stdout;
    if (stdin === null || stdout === null) {
      return Promise.reject(this.#startFailed(new Error("the child has no stdin or stdout pipe")));
    }
    this.#writer = new FrameWriter(stdin, () => `the stdin of "${this.name}"`);
    this.#reader = new FrameReader(
      stdout,
      {
        onFrame: (frame, info) => {
          if (!this.#closeRequested) this.#frameListeners.emit(frame, info);
        },
        onError: (error) => this.#errorListeners.emit(error),
        onEnd: (error) => this.#onStdoutEnd(error),
      },
      options.maxLineBytes,
    );
    if (typeof stderr === "function" && child.stderr !== null) {
      const splitter = createStderrLineSplitter(stderr);
      child.stderr.on("data", (chunk: Uint8Array) => splitter.push(chunk));
      child.stderr.on("end", () => splitter.end());
      child.stderr.on("error", () => {});
    }
    stdin.on("error", (error) => this.#onStdinError(error));
    return new Promise<void>((resolve, reject) => {
      child.once("spawn", () => {
        if (this.#state !== "starting") return;
        this.#state = "running";
        const pid = child.pid;
        if (pid !== undefined) {
          const untrack = trackChild(pid, this.#processGroup);
          child.once("exit", untrack);
        }
        this.#reader?.attach();
        resolve();
      });
      child.on("error", (error) => {
        if (this.#state === "starting") reject(this.#startFailed(error));
        else this.#errorListeners.emit(this.#processError(error));
      });
      child.once("exit", (exitCode, signal) => this.#onExit(exitCode, signal));
      child.once("close", () => this.#finish());
    });
  }

  #startFailed(error: unknown): TransportError {
    const cause = toError(error);
    const code = (cause as NodeJS.ErrnoException).code;
    const cwd = this.#options.cwd;
    let reason = cause.message;
    if (code === "ENOENT") {
      reason =
        cwd !== undefined && !existsSync(cwd)
          ? `working directory "${cwd}" does not exist`
          : `command "${this.#options.command}" not found`;
    } else if (code === "EACCES") {
      reason = `permission denied running "${this.#options.command}"`;
    }
    const failure = new TransportError(
      `Cannot start "${this.name}": ${reason} (${code ?? cause.name})`,
      {
        cause,
      },
    );
    this.#failure = failure;
    this.#errorListeners.emit(failure);
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
    this.#errorListeners.emit(failure);
    void this.#terminate();
  }

  #onStdoutEnd(error?: Error): void {
    if (error !== undefined && this.#state !== "closed") {
      this.#failure ??= new TransportError(`Cannot read from "${this.name}": ${error.message}`, {
        cause: error,
      });
      this.#errorListeners.emit(this.#failure);
    }
    // No more frames can come: make sure the child goes too (at once if it is exiting anyway).
    if (this.#state === "running") void this.#terminate();
  }

  #onExit(exitCode: number | null, signal: NodeJS.Signals | null): void {
    this.#exit = { exitCode, signal };
    for (const resolve of this.#onExited.splice(0)) resolve();
    // 'close' follows once stdout and stderr are drained. A grandchild holding them open must not
    // keep the transport alive: once they stay quiet for the grace period, give up on them.
    const child = this.#child;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const giveUp = () => {
      if (this.#state === "closed") return;
      if (child?.pid !== undefined && this.#processGroup) killQuietly(child.pid, true, "SIGKILL");
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
  #terminate(): Promise<void> {
    this.#terminating ??= (async () => {
      const child = this.#child;
      const pid = child?.pid;
      this.#writer?.end();
      if (child === undefined || pid === undefined) return;
      if (await this.#exitWithin(this.#gracePeriodMs)) return;
      this.#signalled = true;
      killQuietly(pid, this.#processGroup, "SIGTERM");
      if (await this.#exitWithin(this.#gracePeriodMs)) return;
      killQuietly(pid, this.#processGroup, "SIGKILL");
      await this.#exitWithin(Number.POSITIVE_INFINITY);
    })();
    return this.#terminating;
  }

  #exitWithin(milliseconds: number): Promise<boolean> {
    if (this.#exit !== undefined) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer =
        milliseconds === Number.POSITIVE_INFINITY
          ? undefined
          : setTimeout(() => resolve(false), milliseconds);
      this.#onExited.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
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
    if (details.exitCode === 0 || this.#signalled) {
      this.#emitClose({ initiator: "remote", details });
      return;
    }
    const failure = new TransportError(`Process "${this.name}" ${this.#exitText(details)}`);
    this.#failure = failure;
    this.#errorListeners.emit(failure);
    this.#emitClose({ initiator: "error", error: failure, details });
  }

  #emitClose(event: TransportCloseEvent): void {
    if (this.#state === "closed") return;
    this.#state = "closed";
    this.#writer?.fail(
      this.#failure ?? new TransportError(`Cannot send to "${this.name}": the transport is closed`),
    );
    this.#closeListeners.emit(event);
    this.#resolveCloseEmitted();
  }

  #details(): StdioExitDetails {
    return {
      command: this.#options.command,
      pid: this.#child?.pid,
      exitCode: this.#exit?.exitCode ?? null,
      signal: this.#exit?.signal ?? null,
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
