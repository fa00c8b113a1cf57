/**
 * The operating-system account the Desk (or the CLI) runs as: who answered a help request when
 * no name was typed (docs/rules.md#help-requests-and-replies). One definition, so the app and the command line sign alike.
 */
import os from 'node:os';

/** The account name, else `$USER` / `$USERNAME` (no passwd entry, as in some containers), else "operator". */
export function osAccountName(env: Record<string, string | undefined> = process.env): string {
  try {
    const name = os.userInfo().username;
    if (name) return name;
  } catch {
    // no passwd entry for this uid: fall back to the environment
  }
  return env.USER || env.USERNAME || 'operator';
}
