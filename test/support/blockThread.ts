/**
 * Blocks the calling thread for `ms` without using its CPU (`Atomics.wait` on a flag no one sets):
 * a thread kept busy elsewhere, as a long ingest batch keeps the host's, or a call that waits
 * rather than works, as the benchmark harness's tests need to tell apart.
 */
export function blockThread(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
