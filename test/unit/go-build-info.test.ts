import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type ReadAt, readGoBuildInfo } from "../../src/render/go-build-info.js";

// Each fixture holds exactly the byte ranges the reader read from a real Go
// binary (test/fixtures/go-binaries/README.md says how they were made): the two
// pinned helms, and one module (helm.sh/helm/v9, tag v9.8.7) built by Go 1.26
// for six platforms. A read the fixture lacks fails the test.

interface Fixture {
  size: number;
  ranges: [number, Uint8Array][];
}

function fixture(name: string): Fixture {
  const file = JSON.parse(readFileSync(join(import.meta.dirname, "../fixtures/go-binaries", `${name}.json`), "utf8")) as {
    size: number;
    ranges: [number, string][];
  };
  return { size: file.size, ranges: file.ranges.map(([offset, bytes]) => [offset, new Uint8Array(Buffer.from(bytes, "base64"))]) };
}

/** Reads as a file does: nothing past its end, and (a test's check) only what the reader read when the fixture was made. */
function reader(binary: Fixture): ReadAt {
  return (offset, length) => {
    if (offset >= binary.size) return new Uint8Array(0);
    const range = binary.ranges.find(([at]) => at === offset);
    if (range === undefined) throw new Error(`read at ${offset} not recorded`);
    const [, bytes] = range;
    if (length > bytes.length && offset + bytes.length < binary.size) throw new Error(`read of ${length} bytes at ${offset}, ${bytes.length} recorded`);
    return bytes.subarray(0, length);
  };
}

/** The fixture with `bytes` written at absolute file offset `at`, in every recorded range that holds it. */
function patched(binary: Fixture, at: number, bytes: number[] | string): Fixture {
  const data = typeof bytes === "string" ? [...Buffer.from(bytes, "latin1")] : bytes;
  let hit = false;
  const ranges = binary.ranges.map(([offset, content]): [number, Uint8Array] => {
    if (at < offset || at + data.length > offset + content.length) return [offset, content];
    hit = true;
    const copy = content.slice();
    copy.set(data, at - offset);
    return [offset, copy];
  });
  if (!hit) throw new Error(`offset ${at} not in the fixture`);
  return { size: binary.size, ranges };
}

/** linux-amd64 with its build-info section (the last read; entry 8 of the table at 400) holding `content`, and that long. */
function withSection(binary: Fixture, content: Uint8Array): Fixture {
  const size = new Uint8Array(8);
  new DataView(size.buffer).setBigUint64(0, BigInt(content.length), true);
  const ranges = patched(binary, 400 + 8 * 64 + 32, [...size]).ranges;
  const [offset] = ranges.at(-1)!;
  ranges[ranges.length - 1] = [offset, content];
  return { size: binary.size, ranges };
}

/** A build-info section as Go ≥ 1.18 writes it: magic, pointer size, flags, then two varint-prefixed strings. */
function section(modules: string, options: { flags?: number; pad?: number; goVersion?: string } = {}): Uint8Array {
  const text = (s: string) => {
    const bytes = [...Buffer.from(s, "utf8")];
    const length: number[] = [];
    let n = bytes.length;
    do {
      length.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
      n >>= 7;
    } while (n > 0);
    return [...length, ...bytes];
  };
  const header = [...Buffer.from("\xff Go buildinf:", "latin1"), 8, options.flags ?? 2, ...new Array(16).fill(0)];
  return new Uint8Array([...new Array(options.pad ?? 0).fill(0), ...header, ...text(options.goVersion ?? "go1.26.8"), ...text(modules)]);
}

const SENTINEL_START = "0w\xaf\x0c\x92t\x08\x02A\xe1\xc1\x07\xe6\xd6\x18\xe6";
const SENTINEL_END = "\xf92C1\x86\x18 r\x00\x82B\x10A\x16\xd8\xf2";
const MODULES = `${SENTINEL_START}path\thelm.sh/helm/v4/cmd/helm\nmod\thelm.sh/helm/v4\tv4.2.0\t\ndep\tdario.cat/mergo\tv1.0.1\th1:x=\n${SENTINEL_END}`;
const latin1 = (s: string) => new Uint8Array(Buffer.from(s, "latin1"));

describe("a Go binary's build record", () => {
  it("reads Helm 4's module and version from the pinned release binary", () => {
    expect(readGoBuildInfo(reader(fixture("helm-4.1.4")))).toStrictEqual({ module: "helm.sh/helm/v4", version: "v4.1.4", arch: "x64" });
  });

  it("gives nothing for the pinned Helm 3.17.2, built by Go 1.23, which records (devel)", () => {
    expect(readGoBuildInfo(reader(fixture("helm-3.17.2")))).toBeUndefined();
  });

  it.each([
    ["linux-amd64", "x64"],
    ["linux-arm64", "arm64"],
    ["darwin-amd64", "x64"],
    ["darwin-arm64", "arm64"],
  ])("reads a %s build of a tag", (platform, arch) => {
    expect(readGoBuildInfo(reader(fixture(platform)))).toStrictEqual({ module: "helm.sh/helm/v9", version: "v9.8.7", arch });
  });

  it.each(["windows-amd64", "linux-386"])("leaves %s to the caller (PE, 32-bit ELF)", (platform) => {
    expect(readGoBuildInfo(reader(fixture(platform)))).toBeUndefined();
  });

  it("passes on a failure to read, where a damaged header gives nothing", () => {
    expect(() =>
      readGoBuildInfo(() => {
        throw new Error("EIO: i/o error, read");
      }),
    ).toThrow("EIO");
  });

  it("gives nothing for a file shorter than a header, or text", () => {
    expect(readGoBuildInfo(() => new Uint8Array(0))).toBeUndefined();
    expect(readGoBuildInfo(() => latin1("#!/bin/sh\necho v4.1.4\n"))).toBeUndefined();
  });

  describe("ELF", () => {
    const elf = fixture("linux-amd64");

    it("names a machine it does not know other", () => {
      expect(readGoBuildInfo(reader(patched(elf, 18, [40, 0])))?.arch).toBe("other");
    });

    it("reads only 64-bit little-endian files", () => {
      expect(readGoBuildInfo(reader(patched(elf, 0, [0x7e])))).toBeUndefined();
      expect(readGoBuildInfo(reader(patched(elf, 4, [1])))).toBeUndefined();
      expect(readGoBuildInfo(reader(patched(elf, 5, [2])))).toBeUndefined();
    });

    it("gives nothing without a section table, or with a names index past it", () => {
      expect(readGoBuildInfo(reader(patched(elf, 0x3c, [0, 0])))).toBeUndefined();
      expect(readGoBuildInfo(reader(patched(elf, 0x3e, [26, 0])))).toBeUndefined();
      expect(readGoBuildInfo(reader(patched(elf, 0x3a, [40, 0])))).toBeUndefined();
    });

    it("gives nothing when the table is cut short by the end of the file", () => {
      // The table's 26 entries of 64 bytes; the names (.shstrtab) are the last.
      const [offset, table] = elf.ranges[1]!;
      const ranges = elf.ranges.slice();
      ranges[1] = [offset, table.subarray(0, table.length - 1)];
      expect(readGoBuildInfo(reader({ size: offset + table.length - 1, ranges }))).toBeUndefined();
    });

    it("finds the section by its full name only", () => {
      const names = elf.ranges[2]!;
      const at = names[0] + Buffer.from(names[1]).indexOf(".go.buildinfo");
      expect(readGoBuildInfo(reader(patched(elf, at, ".go.buildinfX")))).toBeUndefined();
      expect(readGoBuildInfo(reader(patched(elf, at + ".go.buildinfo".length, ".")))).toBeUndefined();
    });
  });

  describe("Mach-O", () => {
    const macho = fixture("darwin-arm64");

    it("names a processor it does not know other", () => {
      expect(readGoBuildInfo(reader(patched(macho, 4, [18, 0, 0, 0])))?.arch).toBe("other");
      expect(readGoBuildInfo(reader(patched(macho, 4, [7, 0, 0, 1])))?.arch).toBe("x64");
    });

    it("gives nothing when no command is read, or a command has no size", () => {
      expect(readGoBuildInfo(reader(patched(macho, 16, [0, 0, 0, 0])))).toBeUndefined();
      expect(readGoBuildInfo(reader(patched(macho, 36, [0, 0, 0, 0])))).toBeUndefined();
    });

    // The fixture's commands (from file offset 32): the fourth (index 3, at 888) is
    // the __DATA segment, whose first of seven sections is __go_buildinfo.
    const DATA = 888;
    const NSECTS = DATA + 64;
    const FIRST_SECTION = DATA + 72;
    const sectionHeaders = (binary: Fixture) => binary.ranges[1]![1].subarray(FIRST_SECTION - 32, FIRST_SECTION - 32 + 160);
    /** The __DATA segment with its first two section headers swapped: __go_buildinfo second. */
    const swapped = patched(macho, FIRST_SECTION, [...sectionHeaders(macho).subarray(80, 160), ...sectionHeaders(macho).subarray(0, 80)]);

    it("finds the section wherever it stands among its segment's", () => {
      expect(readGoBuildInfo(reader(swapped))?.version).toBe("v9.8.7");
    });

    it("reads only the commands the header counts, and the sections their segment counts", () => {
      expect(readGoBuildInfo(reader(patched(macho, 16, [3, 0, 0, 0])))).toBeUndefined();
      expect(readGoBuildInfo(reader(patched(macho, 16, [4, 0, 0, 0])))?.version).toBe("v9.8.7");
      expect(readGoBuildInfo(reader(patched(macho, NSECTS, [0, 0, 0, 0])))).toBeUndefined();
      expect(readGoBuildInfo(reader(patched(swapped, NSECTS, [1, 0, 0, 0])))).toBeUndefined();
    });

    it("reads sections of segment commands only", () => {
      // LC_SEGMENT (32-bit) has no 64-bit sections.
      expect(readGoBuildInfo(reader(patched(macho, DATA, [1, 0, 0, 0])))).toBeUndefined();
    });

    it("finds the section by its full name only", () => {
      const commands = macho.ranges[1]!;
      const at = commands[0] + Buffer.from(commands[1]).indexOf("__go_buildinfo");
      expect(readGoBuildInfo(reader(patched(macho, at, "__go_buildinfX")))).toBeUndefined();
      expect(readGoBuildInfo(reader(patched(macho, at + 14, "x")))).toBeUndefined();
    });
  });

  describe("the record", () => {
    const elf = fixture("linux-amd64");
    const read = (content: Uint8Array) => readGoBuildInfo(reader(withSection(elf, content)));

    it("reads the main module between Go's sentinels", () => {
      expect(read(section(MODULES))).toStrictEqual({ module: "helm.sh/helm/v4", version: "v4.2.0", arch: "x64" });
    });

    it("reads a record that starts at a later 16-byte boundary, never between", () => {
      expect(read(section(MODULES, { pad: 32 }))?.version).toBe("v4.2.0");
      expect(read(section(MODULES, { pad: 8 }))).toBeUndefined();
      expect(read(section(MODULES, { pad: 1 }))).toBeUndefined();
    });

    it("reads lengths of several varint bytes", () => {
      // 130 and 217 bytes, each length two varint bytes; the section is 480 bytes long.
      const long = `path\tx\nmod\thelm.sh/helm/v4\tv4.3.0\t\n${"dep\tlong\tv1.0.0\t\n".repeat(10)}`;
      expect(read(section(long, { goVersion: "go".repeat(65) }))?.version).toBe("v4.3.0");
      // 128: the first varint byte is 0x80, a continuation with no bits of its own.
      expect(read(section(long, { goVersion: "g".repeat(128) }))?.version).toBe("v4.3.0");
    });

    it("gives nothing for the pointer format of Go before 1.18", () => {
      expect(read(section(MODULES, { flags: 1 }))).toBeUndefined();
      expect(read(section(MODULES, { flags: 3 }))?.version).toBe("v4.2.0");
    });

    it("gives nothing for (devel), a module line without a version, or none", () => {
      expect(read(section("path\tx\nmod\thelm.sh/helm/v4\t(devel)\t\n"))).toBeUndefined();
      expect(read(section("path\tx\nmod\thelm.sh/helm/v4\n"))).toBeUndefined();
      expect(read(section("path\tx\ndep\thelm.sh/helm/v4\tv4.2.0\t\n"))).toBeUndefined();
      expect(read(section(""))).toBeUndefined();
    });

    it("gives nothing for a record cut short", () => {
      const whole = section(MODULES);
      expect(read(whole.subarray(0, whole.length - 1))).toBeUndefined();
      expect(read(whole.subarray(0, 33))).toBeUndefined();
      expect(read(whole.subarray(0, 31))).toBeUndefined();
      // The Go version's length is a varint that never ends.
      expect(read(new Uint8Array([...whole.subarray(0, 32), ...new Array(8).fill(0xff)]))).toBeUndefined();
    });
  });
});
