/** Amounts of memory and disk as Waymark prints them (an import's budget, a dataset being fetched). */

const GiB = 1024 ** 3;

/** `1.5 GiB`, `800 MiB`. */
export function formatBytes(bytes: number): string {
  return bytes >= GiB ? `${(bytes / GiB).toFixed(1)} GiB` : `${Math.round(bytes / 1024 ** 2)} MiB`;
}
