/**
 * Counts in words, one way for the window and the command line: thousands separated ("12,500"),
 * and the noun that goes with the number ("1 run", "2 runs").
 *
 * This file runs anywhere: it imports nothing from Node, Electron or the DOM.
 */
const numbers = new Intl.NumberFormat('en-US');

export function count(n: number): string {
  return numbers.format(n);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}
