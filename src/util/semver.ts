// semver's functions each from its own file: its index loads all of its
// forty-odd modules (range subsets, intersections, increments…) at every
// start, where chartroom calls these. Import this module as a namespace
// (`import * as semver`), as the package's default export would be used.
export { default as SemVer } from "semver/classes/semver.js";
export { default as coerce } from "semver/functions/coerce.js";
export { default as compare } from "semver/functions/compare.js";
export { default as compareBuild } from "semver/functions/compare-build.js";
export { default as diff } from "semver/functions/diff.js";
export { default as eq } from "semver/functions/eq.js";
export { default as gt } from "semver/functions/gt.js";
export { default as gte } from "semver/functions/gte.js";
export { default as lt } from "semver/functions/lt.js";
export { default as parse } from "semver/functions/parse.js";
export { default as rcompare } from "semver/functions/rcompare.js";
export { default as satisfies } from "semver/functions/satisfies.js";
export { default as valid } from "semver/functions/valid.js";
export { default as validRange } from "semver/ranges/valid.js";
