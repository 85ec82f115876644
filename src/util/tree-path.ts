/** One step into a Kubernetes object: a map key, a list index, or a list item found by its merge key. */
export type Segment = { key: string } | { index: number } | { match: string; value: string };

/** `spec.template.spec.containers[name=api].image`, `metadata.labels["helm.sh/chart"]`, `args[0]`. */
export function formatPath(path: readonly Segment[]): string {
  let out = "";
  for (const segment of path) {
    if ("key" in segment) out += /^[A-Za-z_][A-Za-z0-9_-]*$/.test(segment.key) ? `${out === "" ? "" : "."}${segment.key}` : `[${JSON.stringify(segment.key)}]`;
    else if ("index" in segment) out += `[${segment.index}]`;
    else out += `[${segment.match}=${segment.value}]`;
  }
  return out;
}

export function startsWith(path: readonly Segment[], prefix: readonly string[]): boolean {
  if (path.length < prefix.length) return false;
  return prefix.every((key, i) => {
    const segment = path[i];
    return segment !== undefined && "key" in segment && segment.key === key;
  });
}

/** The inverse of formatPath, for paths stored as text (the lock's unstable fields). */
export function parsePath(text: string): Segment[] {
  const out: Segment[] = [];
  const pattern = /([A-Za-z_][A-Za-z0-9_-]*)|\[("(?:[^"\\]|\\.)*")\]|\[(\d+)\]|\[([^=\]]+)=([^\]]*)\]|\./gy;
  while (pattern.lastIndex < text.length) {
    const match = pattern.exec(text);
    if (match === null) break;
    if (match[1] !== undefined) out.push({ key: match[1] });
    else if (match[2] !== undefined) out.push({ key: JSON.parse(match[2]) as string });
    else if (match[3] !== undefined) out.push({ index: Number(match[3]) });
    else if (match[4] !== undefined) out.push({ match: match[4], value: match[5] ?? "" });
  }
  return out;
}
