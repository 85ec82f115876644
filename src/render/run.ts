import { execFile } from "node:child_process";

export interface ProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program; passed in so tests can record or replace it. */
export type Runner = (file: string, args: string[], options: { timeoutMs: number }) => Promise<ProcessResult>;

const MAX_OUTPUT = 512 * 1024 * 1024;

export const runProcess: Runner = (file, args, options) =>
  new Promise((resolve, reject) => {
    execFile(file, args, { timeout: options.timeoutMs, maxBuffer: MAX_OUTPUT, encoding: "utf8" }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== "number") return reject(error);
      resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr });
    });
  });
