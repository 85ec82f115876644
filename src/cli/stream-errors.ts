import { writeSync } from "node:fs";

/** The status SIGPIPE gives helm and kubectl when their reader is gone (128 + 13). */
const CLOSED_PIPE_EXIT = 141;

/**
 * When the CLI's stdout or stderr cannot be written. A reader that stops
 * early (`chartroom diff | head`) closes the pipe: the run ends there,
 * quietly, with SIGPIPE's status, as helm and kubectl end. Any other failure
 * (a full disk, `> /dev/full`) is said in one coded line on stderr, exit 1.
 * Node ignores SIGPIPE, and either was an unhandled error with a stack
 * trace. `stop` ends the run, the CLI's own clean-up first.
 */
export function endOnUnwritableOutput(stop: (code: number) => void): void {
  for (const [stream, name] of [
    [process.stdout, "stdout"],
    [process.stderr, "stderr"],
  ] as const)
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") return stop(CLOSED_PIPE_EXIT);
      if (name === "stdout")
        say(
          `error FILE_UNWRITABLE: cannot write the output to stdout: ${error.message}\n  hint: check where the output goes (a full disk, a read-only file)\n`,
        );
      stop(1);
    });
}

function say(text: string): void {
  try {
    writeSync(2, text);
  } catch {
    // stderr cannot be written either: the exit status is all that is left.
  }
}
