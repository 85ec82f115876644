// Loaded with --import into a measured process: at exit it writes its own CPU
// time and peak memory (children not included) to CHARTROOM_BENCH_USAGE.
import { writeFileSync } from "node:fs";

const target = process.env.CHARTROOM_BENCH_USAGE;
if (target) {
  process.on("exit", () => {
    const usage = process.resourceUsage();
    writeFileSync(target, JSON.stringify({ userMs: usage.userCPUTime / 1000, systemMs: usage.systemCPUTime / 1000, maxRssKb: usage.maxRSS }));
  });
}
