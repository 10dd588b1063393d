/**
 * What a launch handed over in the address's fragment (never sent to a server, never in a log), read once
 * and removed from the address bar and history, so a reload or a shared link carries no token.
 */
export function takeFragment(): Record<string, string> {
  const hash = window.location.hash.replace(/^#/, '');
  if (!hash) return {};
  window.history.replaceState(null, '', window.location.pathname);
  return Object.fromEntries(new URLSearchParams(hash));
}
