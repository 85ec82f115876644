import * as z from "zod/mini";

// chartroom's schemas, through zod/mini: a classic schema binds each of its
// dozens of methods to itself when first read, and checks through more
// layers; a mini one has a few (check, parse…). Building and checking cost
// less (a cold app diff 648 → 619 M instructions, a warm one 359 → 324 M,
// valgrind), and the classic API's own code leaves the bundle and its code
// cache. zod/mini words its errors in no language until told ("Invalid
// input"); classic zod set English on its first schema, and the messages
// chartroom passes on from zod are English: set here, before any schema
// checks anything.
z.config(z.locales.en());

export * from "zod/mini";
