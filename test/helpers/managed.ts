// The managedFields walk lives in the sources (the live review uses it); the
// cluster tests use it to compare live objects with chartroom's render.
export { type Fidelity, fidelity, type ManagedEntry, type Trie } from "../../src/diff/managed-fields.js";
