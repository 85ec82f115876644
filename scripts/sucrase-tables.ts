// sucrase builds its character tables when it loads: it marks every
// character past ASCII as an identifier character one store at a time,
// 65,408 stores in V8's interpreter, in every run that loads a config.
// TypedArray's fill stores the same ones at once: a warm review 459 → 441 M
// instructions. The build fails if sucrase no longer has that loop, rather
// than shipping its slow start unnoticed (test/unit/sucrase-tables.test.ts
// checks the tables come out the same).

/** The file the loop is in, as esbuild resolves it. */
export const IDENTIFIER_FILE = /[\\/]node_modules[\\/]sucrase[\\/]dist[\\/]parser[\\/]util[\\/]identifier\.js$/;

const LOOP = /for \(let i = 128; i < 65536; i\+\+\) \{\s*exports\.IS_IDENTIFIER_CHAR\[i\] = 1;\s*\}/;

/** sucrase's identifier.js with the loop over non-ASCII characters as one fill. */
export function fillIdentifierTable(source: string): string {
  if (!LOOP.test(source)) throw new Error("sucrase's identifier.js no longer marks non-ASCII characters in a loop: check scripts/sucrase-tables.ts against it");
  return source.replace(LOOP, "exports.IS_IDENTIFIER_CHAR.fill(1, 128);");
}
