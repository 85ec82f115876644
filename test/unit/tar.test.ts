import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile, link } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TarError, tarEntries, type TarEntry } from "../../src/chart/tar.js";

// The reader against tar-stream (what chartroom read archives with before)
// on what GNU tar writes in each of its formats, then against Go's
// archive/tar rules (Helm's reader) on hand-made headers where the two differ.

interface Header {
  name: string;
  flag?: string;
  size?: number;
  /** The size field's raw 12 bytes, when not octal text. */
  rawSize?: Buffer;
  linkname?: string;
  prefix?: string;
  magic?: "ustar" | "gnu" | "v7" | "star";
  /** The checksum as written: right (unsigned), signed, or wrong. */
  checksum?: "unsigned" | "signed" | "wrong";
  /** A byte set in a field the checksum counts (to make the signed and unsigned sums differ). */
  highByte?: number;
  /** Bytes written at an offset after the rest (star's access time, say). */
  at?: [number, string];
}

function header(h: Header): Buffer {
  const block = Buffer.alloc(512);
  block.write(h.name, 0, 100, "utf8");
  block.write("0000644\0", 100, "latin1");
  block.write("0000000\0", 108, "latin1");
  block.write("0000000\0", 116, "latin1");
  if (h.rawSize !== undefined) h.rawSize.copy(block, 124);
  else block.write(`${(h.size ?? 0).toString(8).padStart(11, "0")}\0`, 124, "latin1");
  block.write("00000000000\0", 136, "latin1");
  block.write(h.flag ?? "0", 156, "latin1");
  if (h.linkname !== undefined) block.write(h.linkname, 157, 100, "utf8");
  const magic = h.magic ?? "ustar";
  if (magic === "ustar" || magic === "star") block.write("ustar\x0000", 257, "latin1");
  if (magic === "gnu") block.write("ustar  \0", 257, "latin1");
  if (magic === "star") block.write("tar\0", 508, "latin1");
  if (h.prefix !== undefined) block.write(h.prefix, 345, "utf8");
  // In the user name: counted by both sums, differently.
  if (h.highByte !== undefined) block[265] = h.highByte;
  if (h.at !== undefined) block.write(h.at[1], h.at[0], "latin1");
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < 512; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : (block[i] as number);
    unsigned += byte;
    signed += byte >= 0x80 ? byte - 0x100 : byte;
  }
  const sum = h.checksum === "signed" ? signed : h.checksum === "wrong" ? unsigned + 1 : unsigned;
  block.write(`${(sum < 0 ? 0 : sum).toString(8).padStart(6, "0")}\0 `, 148, "latin1");
  return block;
}

function body(content: string | Buffer): Buffer {
  const data = Buffer.from(content);
  return Buffer.concat([data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}

function pax(records: Record<string, string>): Buffer {
  let text = "";
  for (const [key, value] of Object.entries(records)) {
    const rest = ` ${key}=${value}\n`;
    let length = Buffer.byteLength(rest) + 1;
    while (String(length).length + Buffer.byteLength(rest) !== length) length++;
    text += `${length}${rest}`;
  }
  return Buffer.from(text);
}

const END = Buffer.alloc(1024);

function read(...blocks: Buffer[]): { name: string; type: TarEntry["type"]; linkname: string; data: string }[] {
  return [...tarEntries(Buffer.concat(blocks))].map((entry) => ({
    name: entry.name,
    type: entry.type,
    linkname: entry.linkname,
    data: entry.data().toString(),
  }));
}

function refusal(...blocks: Buffer[]): string {
  try {
    read(...blocks);
  } catch (error) {
    if (error instanceof TarError) return error.message;
    throw error;
  }
  throw new Error("expected a TarError");
}

async function viaTarStream(data: Buffer): Promise<{ name: string; type: TarEntry["type"]; linkname: string; data: string }[]> {
  const out: { name: string; type: TarEntry["type"]; linkname: string; data: string }[] = [];
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on("entry", (h, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on("end", () => {
        const type = h.type as TarEntry["type"];
        out.push({ name: h.name, type, linkname: type === "link" || type === "symlink" ? (h.linkname ?? "") : "", data: Buffer.concat(chunks).toString() });
        next();
      });
    });
    extract.on("finish", resolve);
    extract.on("error", reject);
  });
  extract.end(data);
  await done;
  return out;
}

describe("tarEntries reads what GNU tar writes as tar-stream does", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "chartroom-tar-"));
    const chart = join(dir, "chart");
    const deep = join(chart, "templates", "a".repeat(60), "b".repeat(60));
    await mkdir(deep, { recursive: true });
    await writeFile(join(chart, "Chart.yaml"), "apiVersion: v2\nname: chart\nversion: 1.0.0\n");
    await writeFile(join(chart, "empty.txt"), "");
    await writeFile(join(chart, "block.txt"), "x".repeat(512));
    await writeFile(join(chart, "block-and-one.txt"), "y".repeat(513));
    await writeFile(join(chart, "tëmplate-ünïcode.yaml"), "kind: ConfigMap\n");
    await writeFile(join(deep, "long-path.yaml"), "deep\n");
    await symlink("Chart.yaml", join(chart, "link-to-chart"));
    await link(join(chart, "empty.txt"), join(chart, "hard-link"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const pack = async (format: string): Promise<Buffer> => {
    const file = join(dir, `${format}.tar`);
    execFileSync("tar", [`--format=${format}`, "--sort=name", "-cf", file, "-C", dir, "chart"]);
    return readFile(file);
  };

  it.each(["gnu", "oldgnu", "posix", "ustar"])("format %s: the same entries, names, links and contents", async (format) => {
    const data = await pack(format);
    const ours = read(data);
    expect(ours).toStrictEqual(await viaTarStream(data));
    expect(ours.map((entry) => entry.name)).toContain(`chart/templates/${"a".repeat(60)}/${"b".repeat(60)}/long-path.yaml`);
    expect(ours.find((entry) => entry.name === "chart/link-to-chart")).toMatchObject({ type: "symlink", linkname: "Chart.yaml" });
    expect(ours.find((entry) => entry.name === "chart/block-and-one.txt")?.data).toBe("y".repeat(513));
    expect(ours.find((entry) => entry.name === "chart/tëmplate-ünïcode.yaml")?.data).toBe("kind: ConfigMap\n");
  });

  it("reads a v7 archive, which tar-stream refused and Go reads", async () => {
    const file = join(dir, "v7.tar");
    execFileSync("tar", ["--format=v7", "-cf", file, "-C", dir, "chart/Chart.yaml", "chart/empty.txt"]);
    const data = await readFile(file);
    await expect(viaTarStream(data)).rejects.toThrow(/unknown format/);
    expect(read(data).map((entry) => [entry.name, entry.type])).toStrictEqual([
      ["chart/Chart.yaml", "file"],
      ["chart/empty.txt", "file"],
    ]);
  });

  it("reads the example's Helm-made archives as tar-stream does", async () => {
    const { gunzipSync } = await import("node:zlib");
    const data = gunzipSync(await readFile(join(import.meta.dirname, "..", "..", "charts", "webapp-1.0.1.tgz")));
    expect(read(data)).toStrictEqual(await viaTarStream(data));
  });
});

describe("tarEntries follows Go's archive/tar where it matters", () => {
  it("returns contents as views into the archive, not copies", () => {
    const archive = Buffer.concat([header({ name: "c/a", size: 3 }), body("abc"), END]);
    const [entry] = [...tarEntries(archive)];
    expect(entry?.data().buffer).toBe(archive.buffer);
    expect(entry?.size).toBe(3);
  });

  it("stops at two zero blocks, or at one at the very end, and ignores what follows the end", () => {
    expect(read(header({ name: "c/a", size: 1 }), body("a"), END, header({ name: "c/after", size: 1 }), body("b"))).toHaveLength(1);
    expect(read(header({ name: "c/a", size: 1 }), body("a"), Buffer.alloc(512))).toHaveLength(1);
    expect(read(header({ name: "c/a", size: 1 }), body("a"))).toHaveLength(1);
    expect(read()).toStrictEqual([]);
  });

  it("refuses a zero block followed by data, as Go does", () => {
    expect(refusal(Buffer.alloc(512), header({ name: "c/a" }), END)).toContain("zero block");
  });

  it("refuses a stream cut inside a header, a content or its padding", () => {
    const whole = Buffer.concat([header({ name: "c/a", size: 600 }), body("z".repeat(600))]);
    expect(refusal(whole.subarray(0, 300))).toContain("unexpected end");
    expect(refusal(whole.subarray(0, 512 + 599))).toContain("unexpected end");
    expect(refusal(whole.subarray(0, 512 + 600))).toContain("unexpected end");
    expect(read(whole)).toHaveLength(1);
  });

  it("takes the checksum unsigned or signed, and refuses a wrong one", () => {
    for (const highByte of [0x80, 0xe9]) {
      expect(read(header({ name: "c/a", highByte, checksum: "signed" }), END)).toHaveLength(1);
      expect(read(header({ name: "c/a", highByte, checksum: "unsigned" }), END)).toHaveLength(1);
    }
    expect(refusal(header({ name: "c/a", checksum: "wrong" }), END)).toContain("checksum");
  });

  it("reads sizes in octal with spaces or NULs around them, or in base-256", () => {
    const spaced = Buffer.from("    0003 \0\0\0", "latin1");
    expect(read(header({ name: "c/a", rawSize: spaced }), body("abc"), END)[0]?.data).toBe("abc");
    const base256 = Buffer.alloc(12);
    base256[0] = 0x80;
    base256[11] = 5;
    base256[10] = 0;
    expect(read(header({ name: "c/a", rawSize: base256 }), body("hello"), END)[0]?.data).toBe("hello");
    const blank = Buffer.alloc(12);
    expect(read(header({ name: "c/a", rawSize: blank }), END)[0]?.data).toBe("");
  });

  it("refuses a size that is negative, not octal, or too large to read", () => {
    const negative = Buffer.alloc(12, 0xff);
    expect(refusal(header({ name: "c/a", rawSize: negative }), END)).toContain("negative");
    for (const digits of ["00000000009\0", "00000000090\0", "0000000 003\0"])
      expect(refusal(header({ name: "c/a", rawSize: Buffer.from(digits, "latin1") }), END)).toContain("octal");
    const huge = Buffer.alloc(12, 0xff);
    huge[0] = 0x81;
    expect(refusal(header({ name: "c/a", rawSize: huge }), END)).toContain("too large");
  });

  it("joins the ustar prefix (131 bytes in star's headers), and not a GNU header's", () => {
    expect(read(header({ name: "file", prefix: "c/dir" }), END)[0]?.name).toBe("c/dir/file");
    expect(read(header({ name: "file", prefix: "c/dir", magic: "star" }), END)[0]?.name).toBe("c/dir/file");
    expect(read(header({ name: "file", prefix: "c/dir", magic: "gnu" }), END)[0]?.name).toBe("file");
    expect(read(header({ name: "file", prefix: "c/dir", magic: "v7" }), END)[0]?.name).toBe("file");
    // A prefix that fills star's 131 bytes, its access time right after: not part of the path.
    const full = `c/${"p".repeat(129)}`;
    expect(read(header({ name: "file", prefix: full, magic: "star", at: [476, "14000000000"] }), END)[0]?.name).toBe(`${full}/file`);
    expect(read(header({ name: "file", prefix: full, at: [476, "14000000000"] }), END)[0]?.name).toBe(`${full}14000000000/file`);
    expect(read(header({ name: "c/file" }), END)[0]?.name).toBe("c/file");
  });

  it("reads names up to their NUL, or the whole field", () => {
    expect(read(header({ name: "n".repeat(100) }), END)[0]?.name).toBe("n".repeat(100));
    expect(read(header({ name: "c/x\0ignored" }), END)[0]?.name).toBe("c/x");
  });

  it("takes a PAX path or a GNU long name whole, without the header's prefix", () => {
    const records = pax({ path: "c/from-pax" });
    expect(read(header({ name: "P", flag: "x", size: records.length }), body(records), header({ name: "short", prefix: "c/ignored" }), END)[0]?.name).toBe(
      "c/from-pax",
    );
    const long = `c/${"l".repeat(120)}`;
    expect(read(header({ name: "L", flag: "L", size: long.length }), body(long), header({ name: "short", prefix: "c/ignored" }), END)[0]?.name).toBe(long);
    const other = pax({ comment: "no path here" });
    expect(read(header({ name: "P", flag: "x", size: other.length }), body(other), header({ name: "short", prefix: "c/kept" }), END)[0]?.name).toBe(
      "c/kept/short",
    );
  });

  it("applies a PAX header's path, linkpath and size to the next entry only", () => {
    const records = pax({ path: "c/from-pax", linkpath: "target", mtime: "1.5" });
    const entries = read(
      header({ name: "PaxHeader", flag: "x", size: records.length }),
      body(records),
      header({ name: "c/short", flag: "2", linkname: "ignored" }),
      header({ name: "c/next", size: 1 }),
      body("n"),
      END,
    );
    expect(entries).toStrictEqual([
      { name: "c/from-pax", type: "symlink", linkname: "target", data: "" },
      { name: "c/next", type: "file", linkname: "", data: "n" },
    ]);
    const sized = pax({ size: "10" });
    expect(read(header({ name: "P", flag: "x", size: sized.length }), body(sized), header({ name: "c/a", size: 0 }), body("0123456789"), END)[0]?.data).toBe(
      "0123456789",
    );
  });

  it("ignores a global PAX header, as Go returns it as an entry of its own and Helm skips it", () => {
    const records = pax({ path: "c/global", linkpath: "global-target" });
    const entries = read(header({ name: "G", flag: "g", size: records.length }), body(records), header({ name: "c/a", flag: "2", linkname: "own" }), END);
    expect(entries.map((entry) => [entry.name, entry.linkname])).toStrictEqual([["c/a", "own"]]);
    // A PAX header that is the archive's last bytes: no entry, and no error.
    expect(read(header({ name: "P", flag: "x", size: records.length }), body(records))).toStrictEqual([]);
  });

  it("refuses a malformed PAX record: a length that is no number or does not end at a newline, or no key", () => {
    for (const broken of [
      "x path=c/a\n",
      " 9 path=c\n",
      "9 path=c/a",
      "13 path=c/a\n",
      "0x10 path=c/abc\n",
      "1e1 a=bcd\n",
      "10 path=c/a\n",
      "5 a=\n0 a=b\n",
      "99 path=c/a\n",
      "6 =v\n\n",
      "8 nokey\n",
      "0 a=b\n",
    ]) {
      const data = Buffer.from(broken);
      expect(refusal(header({ name: "P", flag: "x", size: data.length }), body(data), header({ name: "c/a" }), END), broken).toContain("malformed PAX");
    }
    // The shortest record Go takes: a key of one letter and an empty value; leading zeros in the length.
    const short = Buffer.from("5 a=\n013 path=c/z\n");
    expect(read(header({ name: "P", flag: "x", size: short.length }), body(short), header({ name: "c/a" }), END)[0]?.name).toBe("c/z");
  });

  it("refuses a NUL in a PAX path or linkpath, and takes one in another record's value", () => {
    for (const key of ["path", "linkpath"]) {
      const records = pax({ [key]: "c/a\0b" });
      expect(refusal(header({ name: "P", flag: "x", size: records.length }), body(records), header({ name: "c/a" }), END)).toContain(`PAX ${key} with a NUL`);
    }
    const comment = pax({ comment: "a\0b" });
    expect(read(header({ name: "P", flag: "x", size: comment.length }), body(comment), header({ name: "c/a" }), END)).toHaveLength(1);
  });

  it("refuses a PAX size that is not a whole number of bytes", () => {
    for (const value of ["12x", " 12", "12 ", "1e3", "99999999999999999999"]) {
      const size = pax({ size: value });
      expect(refusal(header({ name: "P", flag: "x", size: size.length }), body(size), header({ name: "c/a" }), END), value).toContain("PAX size");
    }
  });

  it("takes PAX and GNU long-name headers up to 1 MiB, as Go does, and refuses larger ones", () => {
    const limit = 1 << 20;
    const records = Buffer.concat([pax({ path: "c/at-limit" }), Buffer.alloc(limit - pax({ path: "c/at-limit" }).length)]);
    expect(read(header({ name: "P", flag: "x", size: limit }), body(records), header({ name: "c/a" }), END)[0]?.name).toBe("c/at-limit");
    expect(refusal(header({ name: "P", flag: "x", size: limit + 1 }), END)).toContain("a PAX header of");
    expect(refusal(header({ name: "G", flag: "g", size: limit + 1 }), END)).toContain("a PAX header of");
    expect(refusal(header({ name: "L", flag: "L", size: limit + 1 }), END)).toContain("a GNU long name header of");
  });

  it("refuses a PAX or long-name header whose content is cut short", () => {
    expect(refusal(header({ name: "P", flag: "x", size: 100 }))).toContain("unexpected end");
    expect(refusal(header({ name: "L", flag: "L", size: 600 }), body("x".repeat(512)))).toContain("unexpected end");
  });

  it("stops reading PAX records at NUL padding", () => {
    const records = Buffer.concat([pax({ path: "c/padded" }), Buffer.alloc(4)]);
    expect(read(header({ name: "P", flag: "x", size: records.length }), body(records), header({ name: "c/a" }), END)[0]?.name).toBe("c/padded");
  });

  it("applies GNU long names and long link names to the next entry", () => {
    const name = `c/${"n".repeat(150)}`;
    const target = "t".repeat(120);
    const entries = read(
      header({ name: "././@LongLink", flag: "L", size: name.length + 1, magic: "gnu" }),
      body(`${name}\0`),
      header({ name: "././@LongLink", flag: "K", size: target.length, magic: "gnu" }),
      body(target),
      header({ name: "c/short", flag: "2", linkname: "short", magic: "gnu" }),
      header({ name: "c/plain", magic: "gnu" }),
      END,
    );
    expect(entries.map((entry) => [entry.name, entry.linkname])).toStrictEqual([
      [name, target],
      ["c/plain", ""],
    ]);
  });

  it("reads no content for header-only types, whatever their size says", () => {
    // The 512 bytes after the directory are the next header, as Go reads them.
    for (const flag of ["1", "2", "3", "4", "5", "6"]) {
      const entries = read(header({ name: "c/x", flag, size: 512, linkname: "y" }), header({ name: "c/after", size: 1 }), body("a"), END);
      expect(entries.map((entry) => entry.name)).toStrictEqual(["c/x", "c/after"]);
      expect(entries[0]?.data).toBe("");
    }
  });

  it("names each type as tar-stream did, and gives a type it has no name for null, its content skipped", () => {
    const types = ["0", "1", "2", "3", "4", "5", "6", "7", "S"].map((flag) => read(header({ name: `c/${flag}`, flag, size: 0 }), END)[0]?.type);
    expect(types).toStrictEqual(["file", "link", "symlink", "character-device", "block-device", "directory", "fifo", "contiguous-file", null]);
    expect(read(header({ name: "c/odd", flag: "S", size: 3 }), body("abc"), header({ name: "c/b" }), END).map((entry) => entry.name)).toStrictEqual([
      "c/odd",
      "c/b",
    ]);
    expect(read(header({ name: "c/cont", flag: "7", size: 2 }), body("ab"), END)[0]?.data).toBe("ab");
  });

  it("takes an old-style entry (type NUL) ending in a slash for a folder, as Go does, and a '0' entry for a file", () => {
    expect(read(header({ name: "c/dir/", flag: "\0" }), END)[0]?.type).toBe("directory");
    expect(read(header({ name: "c/file", flag: "\0" }), END)[0]?.type).toBe("file");
    expect(read(header({ name: "c/dir/", flag: "0" }), END)[0]?.type).toBe("file");
  });

  it("gives a link's target only to links", () => {
    expect(read(header({ name: "c/a", linkname: "stray" }), END)[0]?.linkname).toBe("");
    expect(read(header({ name: "c/l", flag: "1", linkname: "c/a" }), END)[0]?.linkname).toBe("c/a");
  });
});
