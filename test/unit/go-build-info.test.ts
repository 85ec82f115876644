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

function reader(binary: Fixture): ReadAt {
  return (offset, length) => {
    const range = binary.ranges.find(([at]) => at === offset);
    if (range === undefined) throw new Error(`read at ${offset} not recorded`);
    return range[1].subarray(0, length);
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

/** The fixture whose build-info section (the last read) holds `content` instead. */
function withSection(binary: Fixture, content: Uint8Array): Fixture {
  const ranges = binary.ranges.slice();
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

  it("gives nothing for a file shorter than a header, or text", () => {
    expect(readGoBuildInfo(() => new Uint8Array(0))).toBeUndefined();
    expect(readGoBuildInfo(() => latin1("#!/bin/sh\necho v4.1.4\n"))).toBeUndefined();
  });

  describe("ELF", () => {
    const elf = fixture("linux-amd64");

    it("names a machine it does not know other", () => {
      expect(readGoBuildInfo(reader(patched(elf, 18, [40, 0])))?.arch).toBe("other");
    });

    it("reads only little-endian files", () => {
      expect(readGoBuildInfo(reader(patched(elf, 5, [2])))).toBeUndefined();
    });

    it("gives nothing without a section table, or with a names index past it", () => {
      expect(readGoBuildInfo(reader(patched(elf, 0x3c, [0, 0])))).toBeUndefined();
      expect(readGoBuildInfo(reader(patched(elf, 0x3e, [26, 0])))).toBeUndefined();
      expect(readGoBuildInfo(reader(patched(elf, 0x3a, [40, 0])))).toBeUndefined();
    });

    it("gives nothing when the table is cut short by the end of the file", () => {
      const [offset, table] = elf.ranges[1]!;
      const ranges = elf.ranges.slice();
      ranges[1] = [offset, table.subarray(0, table.length - 1)];
      expect(readGoBuildInfo(reader({ size: elf.size, ranges }))).toBeUndefined();
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
    });

    it("reads lengths of several varint bytes", () => {
      // 130 and 217 bytes, each length two varint bytes; the section is 480 bytes long.
      const long = `path\tx\nmod\thelm.sh/helm/v4\tv4.3.0\t\n${"dep\tlong\tv1.0.0\t\n".repeat(10)}`;
      expect(read(section(long, { goVersion: "go".repeat(65) }))?.version).toBe("v4.3.0");
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
