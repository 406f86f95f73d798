/**
 * How to spell a turnloop command in a hint the user will paste into their shell: `npx turnloop` when this run came
 * through npx or an npm script (the bin is then on PATH only for the run), `turnloop` when a turnloop is on the
 * user's PATH for good (a global install), else `npx turnloop`, which works in a clone and in any project that
 * installed the package.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export function turnloopCommand(env: Record<string, string | undefined>): string {
  // npx sets npm_command=exec; an npm script sets npm_lifecycle_event; both put node_modules/.bin on PATH for now only.
  if (env.npm_command === 'exec' || env.npm_lifecycle_event !== undefined) return 'npx turnloop';
  const onPath = (env.PATH ?? '').split(delimiter).some((dir) => {
    if (dir === '' || /[\\/]node_modules[\\/]\.bin$/.test(dir)) return false;
    try {
      accessSync(join(dir, 'turnloop'), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  return onPath ? 'turnloop' : 'npx turnloop';
}
