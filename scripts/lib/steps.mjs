// Named, timed steps with timeouts: every failure names the step it happened in, and no
// step can hang a run forever.
import { spawn } from 'node:child_process';

export function log(prefix, message) {
  process.stdout.write(`[${prefix}] ${message}\n`);
}

export function seconds(ms) {
  return `${(ms / 1000).toFixed(1)}s`;
}

export async function step(prefix, name, fn) {
  const started = Date.now();
  log(prefix, `${name} ...`);
  try {
    const result = await fn();
    log(prefix, `${name} done in ${seconds(Date.now() - started)}`);
    return result;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`step "${name}" failed after ${seconds(Date.now() - started)}: ${reason}`, { cause: error });
  }
}

// Runs a command to completion, output passed through, rejecting on a non-zero exit,
// a signal, or when it outlives timeoutMs (then its whole process group is killed).
export function run(command, args, { cwd, env, timeoutMs = 10 * 60_000, quiet = false } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: env ?? process.env,
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
      detached: true,
    });
    let captured = '';
    if (quiet) {
      child.stdout.on('data', (chunk) => { captured += chunk; });
      child.stderr.on('data', (chunk) => { captured += chunk; });
    }
    const timer = setTimeout(() => {
      killGroup(child.pid, 'SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} timed out after ${seconds(timeoutMs)}\n${captured}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`could not start ${command}: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise(captured);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${signal ?? code}\n${captured}`));
    });
  });
}

// Sends a signal to a process group; a group that is already gone is what we wanted.
export function killGroup(pid, signal) {
  if (!pid) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch (error) {
    if (error.code === 'ESRCH') return false;
    throw error;
  }
}

export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${seconds(ms)}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
