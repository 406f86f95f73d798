/** Runs once before the tests: bundles the viewer's page script, so the viewer tests run on a fresh clone. */
import { buildViewerBundle } from '../scripts/build-viewer.ts';

export default async function setup(): Promise<void> {
  await buildViewerBundle();
}
