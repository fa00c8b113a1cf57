/**
 * The Content-Security-Policy of the window, in both hosts (Electron's response header and the
 * browser host's) and in the page's own `<meta>` (added by the renderer build when missing):
 * only files of the build, no inline script or style, no remote origin, no framing.
 * Self-contained (no imports) so build tools can load it too.
 */
export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The same policy for the page's `<meta>`: `frame-ancestors` is left out because browsers
 * ignore it there (and complain on the console); the response headers carry it.
 */
export const CSP_META = CSP.split('; ')
  .filter((directive) => !directive.startsWith('frame-ancestors'))
  .join('; ');
