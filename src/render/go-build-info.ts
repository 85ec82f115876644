/**
 * What a Go binary records about its own build (Go's debug/buildinfo): the main
 * module's path and version and the machine it runs on, read from the ELF or
 * Mach-O headers without running it. Starting helm only to ask its version costs
 * a cold run about as much CPU as a small render; a release of Helm 4 (and any
 * Go ≥ 1.24 build of a tag) records the version it prints here. Older builds
 * record "(devel)", 32-bit, big-endian and PE files are not read: each of those
 * gives undefined, and the caller asks the binary instead.
 */

/** Up to `length` bytes of the file from `offset` (fewer at its end). */
export type ReadAt = (offset: number, length: number) => Uint8Array;

export interface GoBuildInfo {
  /** The main module, e.g. helm.sh/helm/v4. */
  module: string;
  /** Its version as Go recorded it, e.g. v4.1.4; never "(devel)". */
  version: string;
  /** The machine the binary is for, as Node names it (x64, arm64), or "other". */
  arch: string;
}

const MAGIC = "\xff Go buildinf:";
const HEADER_SIZE = 32;
const ALIGN = 16;
// Go reads at most this much of the section to find the header and its strings.
const SEARCH_SIZE = 64 * 1024;
// Go ≥ 1.18: the two strings follow the header, each after its length as a varint.
const FLAG_INLINE = 2;

export function readGoBuildInfo(read: ReadAt): GoBuildInfo | undefined {
  try {
    const head = view(read(0, 64));
    const found = elfSection(read, head) ?? machoSection(read, head);
    if (found === undefined) return undefined;
    const module = mainModule(read(found.offset, Math.min(found.size, SEARCH_SIZE)));
    return module === undefined ? undefined : { ...module, arch: found.arch };
  } catch (error) {
    // A header, table or command that points past what was read: not a file this reads.
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

interface Section {
  offset: number;
  size: number;
  arch: string;
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The .go.buildinfo section of a 64-bit little-endian ELF file. */
function elfSection(read: ReadAt, head: DataView): Section | undefined {
  // \x7fELF, class 2 (64-bit), data 1 (little-endian).
  if (head.getUint32(0) !== 0x7f454c46 || head.getUint8(4) !== 2 || head.getUint8(5) !== 1) return undefined;
  const machine = head.getUint16(18, true);
  const tableOffset = Number(head.getBigUint64(0x28, true));
  const entrySize = head.getUint16(0x3a, true);
  const count = head.getUint16(0x3c, true);
  const namesIndex = head.getUint16(0x3e, true);
  const table = view(read(tableOffset, entrySize * count));
  const at = (i: number) => ({
    name: table.getUint32(i * entrySize, true),
    offset: Number(table.getBigUint64(i * entrySize + 24, true)),
    size: Number(table.getBigUint64(i * entrySize + 32, true)),
  });
  const names = at(namesIndex);
  const text = new TextDecoder("latin1").decode(read(names.offset, names.size));
  for (let i = 0; i < count; i++) {
    const section = at(i);
    if (text.slice(section.name, text.indexOf("\0", section.name)) === ".go.buildinfo") {
      return { offset: section.offset, size: section.size, arch: machine === 62 ? "x64" : machine === 183 ? "arm64" : "other" };
    }
  }
  return undefined;
}

/** The __go_buildinfo section of a 64-bit little-endian Mach-O file. */
function machoSection(read: ReadAt, head: DataView): Section | undefined {
  if (head.getUint32(0, true) !== 0xfeedfacf) return undefined;
  const cpu = head.getUint32(4, true);
  const arch = cpu === 0x01000007 ? "x64" : cpu === 0x0100000c ? "arm64" : "other";
  const commandCount = head.getUint32(16, true);
  const commands = view(read(32, head.getUint32(20, true)));
  let at = 0;
  for (let i = 0; i < commandCount; i++) {
    // LC_SEGMENT_64: its sections follow the 72 bytes of the command, 80 bytes each.
    if (commands.getUint32(at, true) === 0x19) {
      const sections = commands.getUint32(at + 64, true);
      for (let s = 0; s < sections; s++) {
        const base = at + 72 + s * 80;
        const name = new TextDecoder("latin1").decode(new Uint8Array(commands.buffer, commands.byteOffset + base, 16));
        if (name === "__go_buildinfo\0\0") {
          return { offset: commands.getUint32(base + 48, true), size: Number(commands.getBigUint64(base + 40, true)), arch };
        }
      }
    }
    at += commands.getUint32(at + 4, true);
  }
  return undefined;
}

/** The main module's path and version from the section's bytes. */
function mainModule(data: Uint8Array): { module: string; version: string } | undefined {
  const text = new TextDecoder("latin1").decode(data);
  let start = -1;
  for (let at = 0; at + HEADER_SIZE <= text.length; at += ALIGN) {
    if (text.startsWith(MAGIC, at)) {
      start = at;
      break;
    }
  }
  if (start < 0 || (data[start + 15]! & FLAG_INLINE) === 0) return undefined;
  const goVersion = varintString(data, start + HEADER_SIZE);
  if (goVersion === undefined) return undefined;
  const modules = varintString(data, goVersion.end);
  if (modules === undefined) return undefined;
  // The text sits between two 16-byte sentinels (no tab or newline in them), and "path" comes before "mod".
  for (const line of modules.text.split("\n")) {
    const [kind, path, version] = line.split("\t");
    if (kind === "mod" && path && version && version !== "(devel)") return { module: path, version };
  }
  return undefined;
}

/** A string after its length as an unsigned varint. */
function varintString(data: Uint8Array, at: number): { text: string; end: number } | undefined {
  let length = 0;
  let shift = 0;
  for (;;) {
    const byte = data[at++];
    if (byte === undefined) return undefined;
    length += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) break;
  }
  if (at + length > data.length) return undefined;
  return { text: new TextDecoder("utf-8").decode(data.subarray(at, at + length)), end: at + length };
}
