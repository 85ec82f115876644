import { gzipSync } from "node:zlib";
import tar from "tar-stream";

export interface RawEntry {
  name: string;
  type?: tar.Header["type"];
  content?: string | Buffer;
  linkname?: string;
}

/** A .tgz with exactly these entries: used to craft hostile archives. */
export async function tarball(entries: RawEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
  const done = new Promise<void>((resolve) => pack.on("end", resolve));
  for (const entry of entries) {
    const content = typeof entry.content === "string" ? Buffer.from(entry.content) : (entry.content ?? Buffer.alloc(0));
    const type = entry.type ?? "file";
    const size = type === "file" ? content.length : 0;
    const header = { name: entry.name, type, size, linkname: entry.linkname, mode: 0o644, mtime: new Date(0) };
    if (type === "file") pack.entry(header, content);
    else pack.entry(header, Buffer.alloc(0));
  }
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

export const MINIMAL_CHART_YAML = "apiVersion: v2\nname: tiny\nversion: 0.1.0\n";
