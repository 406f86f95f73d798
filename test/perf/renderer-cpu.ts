/**
 * CPU time used by a browser's renderer processes (user + system, from /proc), to measure what a step costs
 * the page itself, whatever else the machine is running: wall-clock time on a shared 2-core machine measures the
 * other jobs as much as the page.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Milliseconds of CPU the renderer processes of the browser using `profile` have used so far. */
export function rendererCpuMs(profile: string): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!cmdline.includes('--type=renderer') || !cmdline.includes(profile)) continue;
    try {
      // Fields after the command name (which may hold spaces, inside parentheses): utime is the 14th, stime the 15th.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      continue;
    }
  }
  return (ticks * 1000) / CLOCK_TICKS;
}
