import { gzipSync } from "node:zlib";
import tar from "tar-stream";

/**
 * Pack chart files into a .tgz whose bytes depend only on the files: sorted
 * entries, one fixed mtime, root ownership, no user names. Helm reads it as
 * it reads its own `helm package` output.
 */
export async function packChart(root: string, files: Map<string, Buffer>, mtime: Date): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
  const finished = new Promise<void>((resolve, reject) => {
    pack.on("end", resolve);
    pack.on("error", reject);
  });
  for (const path of [...files.keys()].sort()) {
    const content = files.get(path) ?? Buffer.alloc(0);
    pack.entry({ name: `${root}/${path}`, size: content.length, mode: 0o644, mtime, uid: 0, gid: 0, uname: "", gname: "" }, content);
  }
  pack.finalize();
  await finished;
  return gzipSync(Buffer.concat(chunks), { level: 9 });
}
