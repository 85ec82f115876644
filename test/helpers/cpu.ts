// How much CPU this process spent on some work: the bound a test puts on
// "finishes instead of hanging". Wall time counts the other processes of a busy
// machine too (under Stryker and two spin loops a 0.2 s walk took over 5 s of
// wall time); CPU time counts only this one's.
export function cpuMs<T>(work: () => T): { value: T; ms: number } {
  const before = process.cpuUsage();
  const value = work();
  const { user, system } = process.cpuUsage(before);
  return { value, ms: (user + system) / 1000 };
}
