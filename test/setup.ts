// After each test: a command it started and did not wait for (it timed out or
// failed half-way) is killed with its whole process group, so that one
// failure never leaves a Pulumi language host or a kubectl running into the next test.
import { afterEach } from "vitest";
import { killCommands } from "./helpers/process.js";

afterEach(() => {
  killCommands();
});
