// `--set` lines and the values Helm makes of them. The unit test holds
// chartroom's parser to these; test/integration/set-flags.test.ts holds real
// Helm 3 and Helm 4 to them, so the table cannot drift from Helm.

export interface SetCase {
  option: "set" | "set-string";
  arg: string;
  /** Values files below the flag (as `-f`), merged in order. */
  below?: Record<string, unknown>;
  /** The user's values after the flag, as helm's `toJson .Values` prints them (no chart defaults). */
  values: Record<string, unknown>;
}

export const SET_CASES: SetCase[] = [
  { option: "set", arg: "a=b", values: { a: "b" } },
  { option: "set", arg: "a=1", values: { a: 1 } },
  { option: "set", arg: "a=0", values: { a: 0 } },
  { option: "set", arg: "a=007", values: { a: "007" } },
  { option: "set", arg: "a=-5", values: { a: -5 } },
  { option: "set", arg: "a=+5", values: { a: 5 } },
  { option: "set", arg: "a=-0", values: { a: 0 } },
  { option: "set", arg: "a=1.5", values: { a: "1.5" } },
  { option: "set", arg: "a=1e3", values: { a: "1e3" } },
  { option: "set", arg: "a=1_000", values: { a: "1_000" } },
  { option: "set", arg: "a=1000000", values: { a: 1000000 } },
  { option: "set", arg: "a=9223372036854775808", values: { a: "9223372036854775808" } },
  { option: "set", arg: "a=true,b=FALSE,c=True", values: { a: true, b: false, c: true } },
  { option: "set", arg: "a=null", values: { a: null } },
  { option: "set", arg: "a=Null", values: { a: null } },
  { option: "set", arg: "a=yes,b=on", values: { a: "yes", b: "on" } },
  { option: "set", arg: "a.b.c=x", values: { a: { b: { c: "x" } } } },
  { option: "set", arg: "a.b=1,a.c=2", values: { a: { b: 1, c: 2 } } },
  { option: "set", arg: "a=x,b=y", values: { a: "x", b: "y" } },
  { option: "set", arg: "a=x\\,y", values: { a: "x,y" } },
  { option: "set", arg: "a\\.b=x", values: { "a.b": "x" } },
  { option: "set", arg: "a\\=b=x", values: { "a=b": "x" } },
  { option: "set", arg: "a=x\\\\y", values: { a: "x\\y" } },
  { option: "set", arg: "a=b=c", values: { a: "b=c" } },
  { option: "set", arg: "a= x ", values: { a: " x " } },
  { option: "set", arg: "a=", values: { a: "" } },
  { option: "set", arg: "a=,b=c", values: { a: "", b: "c" } },
  { option: "set", arg: "a={x,y,z}", values: { a: ["x", "y", "z"] } },
  { option: "set", arg: "a={1,true,null,s}", values: { a: [1, true, null, "s"] } },
  { option: "set", arg: "a={}", values: { a: [""] } },
  { option: "set", arg: "a={x},b=y", values: { a: ["x"], b: "y" } },
  { option: "set", arg: "a={x\\,y}", values: { a: ["x,y"] } },
  { option: "set", arg: "a=x{y}", values: { a: "x{y}" } },
  { option: "set", arg: "a[0]=x", values: { a: ["x"] } },
  { option: "set", arg: "a[2]=x", values: { a: [null, null, "x"] } },
  { option: "set", arg: "a[1]=x,a[0]=y", values: { a: ["y", "x"] } },
  { option: "set", arg: "a[0]=x,a[0]=y", values: { a: ["y"] } },
  { option: "set", arg: "a[0].b=x,a[0].c=y", values: { a: [{ b: "x", c: "y" }] } },
  { option: "set", arg: "a[1].b=x", values: { a: [null, { b: "x" }] } },
  { option: "set", arg: "a[0]=s,a[0].b=x", values: { a: [{ b: "x" }] } },
  { option: "set", arg: "a[0][1]=x", values: { a: [[null, "x"]] } },
  { option: "set", arg: "a[0]={x,y}", values: { a: [["x", "y"]] } },
  { option: "set", arg: "a[0].b[1].c=x", values: { a: [{ b: [null, { c: "x" }] }] } },
  { option: "set", arg: "a[0]=", values: { a: [""] } },
  { option: "set", arg: "a[0].b=", values: { a: [] } },
  { option: "set", arg: "a.b=", values: { a: { b: "" } } },
  { option: "set", arg: "a.", values: {} },
  { option: "set", arg: "=x", values: {} },
  { option: "set", arg: "ключ=значение", values: { ключ: "значение" } },
  { option: "set", arg: "a=x,", values: { a: "x" } },
  { option: "set-string", arg: "a=1,b=true,c=null,d=007", values: { a: "1", b: "true", c: "null", d: "007" } },
  { option: "set-string", arg: "a={1,2}", values: { a: ["1", "2"] } },
  { option: "set-string", arg: "a[1]=0", values: { a: [null, "0"] } },
  // Over values files: a flag is parsed into them (an index changes one item), where a later values file would replace the list.
  { option: "set", arg: "lst[1]=Q", below: { lst: ["p", "q", "r"] }, values: { lst: ["p", "Q", "r"] } },
  { option: "set", arg: "lst[0].b=x", below: { lst: [{ a: 1 }, "s"] }, values: { lst: [{ a: 1, b: "x" }, "s"] } },
  { option: "set", arg: "lst[1].b=x", below: { lst: [{ a: 1 }, "s"] }, values: { lst: [{ a: 1 }, { b: "x" }] } },
  { option: "set", arg: "lst[0][1]=x", below: { lst: [["p", "q"]] }, values: { lst: [["p", "x"]] } },
  { option: "set", arg: "m.k=v", below: { m: { j: 1 } }, values: { m: { j: 1, k: "v" } } },
  { option: "set", arg: "m=v", below: { m: { j: 1 } }, values: { m: "v" } },
  { option: "set", arg: "m.k=null", below: { m: { k: 1, j: 2 } }, values: { m: { k: null, j: 2 } } },
];

/** Lines Helm refuses; chartroom refuses each with USAGE, naming the flag and never the value. */
export const SET_REFUSALS: { option: "set" | "set-string"; arg: string; below?: Record<string, unknown> }[] = [
  { option: "set", arg: "a" },
  { option: "set", arg: "a,b=c" },
  { option: "set", arg: "a={x,y" },
  { option: "set", arg: "a[x]=1" },
  { option: "set", arg: "a[]=1" },
  { option: "set", arg: "a[-1]=1" },
  { option: "set", arg: "a[65537]=1" },
  { option: "set", arg: "a[1" },
  { option: "set", arg: "a[0]x=1" },
  { option: "set", arg: "a=1,a.b=2" },
  { option: "set", arg: "a.b=1,a[0]=2" },
  { option: "set", arg: "a[0]=s,a[0][1]=x" },
  { option: "set", arg: "a.b=1,a.b.c=2" },
  { option: "set", arg: "a.=x" },
  { option: "set", arg: `${Array.from({ length: 32 }, (_, i) => `k${i}`).join(".")}=x` },
  { option: "set", arg: "s.k=v", below: { s: "text" } },
  { option: "set", arg: "n.k=v", below: { n: null } },
  { option: "set", arg: "s[0]=v", below: { s: "text" } },
];
