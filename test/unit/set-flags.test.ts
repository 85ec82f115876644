import { describe, expect, it } from "vitest";
import { ChartroomError } from "../../src/errors/index.js";
import type { ValuesLayer } from "../../src/model/values.js";
import { applySetFlag, flagValues, orderedFlags, renameSetFiles, typedValue, valuesWithFlags } from "../../src/values/set-flags.js";
import { SET_CASES, SET_REFUSALS } from "../helpers/set-cases.js";

function refusal(run: () => unknown): ChartroomError {
  try {
    run();
  } catch (error) {
    if (ChartroomError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("--set as Helm parses it", () => {
  it.each(SET_CASES)("--$option $arg", ({ option, arg, below, values }) => {
    const into = structuredClone(below ?? {});
    applySetFlag(into, { option, arg });
    expect(into).toStrictEqual(values);
  });

  it.each(SET_REFUSALS)("refuses --$option $arg", ({ option, arg, below }) => {
    const error = refusal(() => applySetFlag(structuredClone(below ?? {}), { option, arg }));
    expect(error.code).toBe("USAGE");
    expect(error.message.startsWith(`--${option}: `)).toBe(true);
    expect(error.hint).toContain("a.b=1,list[0]=x");
  });

  it("never puts a value in its errors", () => {
    const secret = "hunter2-very-secret";
    for (const arg of [`password=${secret},${secret}`, `password={${secret}`, `password=${secret},x.y=1,x.y.z=2`, `${secret}`]) {
      const error = refusal(() => applySetFlag({}, { option: "set", arg }));
      expect(`${error.message} ${error.hint}`).not.toContain("hunter2");
    }
  });

  it.each([
    ["true", true],
    ["TRUE", true],
    ["faLse", false],
    ["fal\u017fe", false],
    ["nuLL", null],
    ["0", 0],
    ["00", "00"],
    ["-1", -1],
    ["+12", 12],
    ["9223372036854775807", Number(2n ** 63n - 1n)],
    ["-9223372036854775808", Number(-(2n ** 63n))],
    ["-9223372036854775809", "-9223372036854775809"],
    ["1.0", "1.0"],
    ["0x10", "0x10"],
    [" 1", " 1"],
    ["", ""],
  ])("types %j as %j", (text, value) => {
    expect(typedValue(text, false)).toStrictEqual(value);
    expect(typedValue(text, true)).toBe(text);
  });
});

describe("--set-file", () => {
  it("reads each path through the reader, a list of paths too", () => {
    const files: Record<string, string> = { "/x/a.txt": "A\n", "/x/b,c.txt": "B", "/x/c.txt": "C" };
    const values = flagValues({ option: "set-file", arg: "k=/x/a.txt,l={/x/b\\,c.txt,/x/c.txt}", files });
    expect(values).toStrictEqual({ k: "A\n", l: ["B", "C"] });
  });

  it("renames its paths, escaped so Helm reads the new ones", () => {
    const { arg, paths } = renameSetFiles("k=a.txt,m.n=dir/b\\,c.txt,l={x,y}", (path) => `/abs/${path}`);
    expect(paths).toStrictEqual(["a.txt", "dir/b,c.txt", "x", "y"]);
    expect(arg).toBe("k=/abs/a\\.txt,m.n=/abs/dir/b\\,c\\.txt,l={/abs/x,/abs/y}");
    const read = flagValues({ option: "set-file", arg, files: { "/abs/a.txt": "1", "/abs/dir/b,c.txt": "2", "/abs/x": "3", "/abs/y": "4" } });
    expect(read).toStrictEqual({ k: "1", m: { n: "2" }, l: ["3", "4"] });
  });

  it("refuses a layer that does not carry a path's text", () => {
    expect(refusal(() => flagValues({ option: "set-file", arg: "k=/x/a.txt", files: {} })).code).toBe("INVALID_ARGUMENT");
  });
});

describe("values with flags", () => {
  const file = (name: string, values: Record<string, unknown>): ValuesLayer => ({ name, text: JSON.stringify(values), values });
  const flag = (option: "set" | "set-string" | "set-file", arg: string, files?: Record<string, string>): ValuesLayer => ({
    name: `--${option}`,
    text: arg,
    flag: { option, arg, ...(files === undefined ? {} : { files }) },
  });

  it("applies every flag after every values file, --set then --set-string then --set-file, whatever the order given", () => {
    const layers = [
      flag("set-file", "a=/f", { "/f": "from a file" }),
      file("one.yaml", { a: "one", keep: { x: 1 }, lst: [1, 2, 3] }),
      flag("set-string", "a=2,b=3"),
      flag("set", "a=1,b=true,lst[1]=9"),
      file("two.yaml", { keep: { y: 2 } }),
      flag("set", "c=x"),
    ];
    expect(orderedFlags(layers).map((one) => one.option)).toStrictEqual(["set", "set", "set-string", "set-file"]);
    expect(valuesWithFlags(layers, (layer) => layer.values ?? {})).toStrictEqual({
      a: "from a file",
      b: "3",
      c: "x",
      keep: { x: 1, y: 2 },
      lst: [1, 9, 3],
    });
    // The files' own values are left as they were.
    expect(layers[1]?.values).toStrictEqual({ a: "one", keep: { x: 1 }, lst: [1, 2, 3] });
  });
});
