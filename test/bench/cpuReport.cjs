// Preloaded into a benchmarked child process (`node --require`): writes the process's own CPU
// time (user + system, µs) to $KEEL_BENCH_CPU_FILE as it exits. Finer than /usr/bin/time's 10 ms.
const { writeFileSync } = require('node:fs');
process.once('exit', () => {
  const { user, system } = process.cpuUsage();
  writeFileSync(process.env.KEEL_BENCH_CPU_FILE, String(user + system));
});
