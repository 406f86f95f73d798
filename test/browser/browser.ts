/**
 * Headless Chromium for the viewer tests, through playwright-core and the system's Debian `chromium` (CI installs
 * it with `apt-get install -y chromium`; never `npx playwright install`). Each launch gets a fresh profile
 * directory. Tests skip, saying why, only when /usr/bin/chromium is absent.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM_PATH);
export const SKIP_REASON = `SKIPPED: ${CHROMIUM_PATH} is absent (install it with: apt-get install -y chromium)`;

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  /** The fresh profile directory this browser runs with (its processes name it on their command line). */
  profile: string;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'turnloop-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    viewport: { width: 1500, height: 950 },
  });
  // No test page may reach the network: everything is inlined or loaded from disk.
  await context.route(/^(https?|wss?):/, (route) => route.abort());
  return {
    context,
    profile,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
