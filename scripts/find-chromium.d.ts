// Types for find-chromium.js, for playwright.config.ts and the unit test that import it.
export interface ChromiumCandidate {
  path: string;
  /** Where it comes from, as said to the person: "$CHROMIUM_PATH", "`chromium` on PATH", ... */
  where: string;
}

export interface ChromiumSearch {
  env?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  /** Where Playwright keeps its own Chromium; null when playwright-core is not installed. */
  playwrightPath?: string | null;
}

export interface ChromiumSetup extends ChromiumSearch {
  log?: (line: string) => void;
  run?: (command: string, args: string[]) => boolean;
  isRoot?: boolean;
  isDebian?: boolean;
}

export const PATH_COMMANDS: readonly string[];
export function playwrightChromium(): string | null;
export function chromiumCandidates(options?: ChromiumSearch): ChromiumCandidate[];
export function findChromium(options?: ChromiumSearch): ChromiumCandidate | null;
export function ensureChromium(options?: ChromiumSetup): string | null;
