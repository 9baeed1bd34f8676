// Whether a host is this machine, asked in three places: a profile's plain-http baseUrl (a token must not cross a
// network in clear), the sandbox admin API (which answers only this machine) and sandbox commands (which refuse a
// service elsewhere). One answer for all three.

/** True for a name or address of this machine: localhost, 127.0.0.0/8 (also IPv4-mapped, ::ffff:127.x), ::1. */
export function isLoopback(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  const ipv4 = name.startsWith('::ffff:') ? name.slice('::ffff:'.length) : name;
  return name === 'localhost' || name === '::1' || /^127(\.\d{1,3}){3}$/.test(ipv4);
}
