// The lock and images reports line by line: each change kind with its
// digests, the image summary's every part and its absence, each image row
// locked or not, pinned or not, with its platforms or not.
import { describe, expect, it } from "vitest";
import { imagesMarkdown, imagesText, type ImagesReport } from "../../src/report/images.js";
import { lockMarkdown, lockText, type ImageSummary, type LockReport } from "../../src/report/lock.js";
import { plain } from "../../src/report/paint.js";

const digest = (c: string) => `sha256:${c.repeat(64)}`;
const none: ImageSummary = { locked: 0, unresolved: [], unchecked: [], moved: [] };

function lock(images: ImageSummary, written = true): LockReport {
  return {
    report: "lock",
    format: 1,
    path: "/p/charts.lock.json",
    written,
    changes: [
      { chart: "a", kind: "added", to: "1.0.0" },
      { chart: "b", kind: "republished", from: "1.0.0", to: "1.0.0", digests: { from: digest("a"), to: digest("b") } },
      { chart: "c", kind: "removed", from: "2.0.0" },
    ],
    images,
  };
}

describe("the lock report", () => {
  it("shows each change, a republished version's two digests, and says nothing of images when there are none", () => {
    expect(lockText(lock(none), plain, "/p")).toBe(
      [
        "CHART  CHANGE       FROM   TO",
        "a      added        -      1.0.0",
        "b      republished  1.0.0  1.0.0 (aaaaaaaaaaaa → bbbbbbbbbbbb)",
        "c      removed      2.0.0  -",
        "",
        "wrote charts.lock.json",
      ].join("\n"),
    );
    expect(lockMarkdown(lock(none, false), "/elsewhere").split("\n")[0]).toBe("../p/charts.lock.json is up to date");
  });

  it("says how many images are locked, each reason once with its count, what was not rechecked or moved, and older pins", () => {
    const images: ImageSummary = {
      locked: 2,
      unresolved: [
        { chart: "a", stack: "dev", image: "r.test/x:1", why: "registry not declared" },
        { chart: "a", stack: "prod", image: "r.test/x:1", why: "registry not declared" },
        { chart: "a", stack: "dev", image: "r.test/y:1", why: "registry not declared" },
        { chart: "b", stack: "dev", image: "q.test/z:1", why: "401 from the registry" },
      ],
      unchecked: [{ chart: "a", stack: "dev", image: "r.test/w:1", why: "timed out" }],
      moved: [{ chart: "b", stack: "prod", image: "r.test/v:2", from: digest("c"), to: digest("d") }],
      notRecorded: ["old"],
    };
    expect(lockText(lock(images), plain, "/p").split("\n").slice(6)).toStrictEqual([
      "images: 2 of 6 locked by digest",
      "images not recorded for old (locked by an older chartroom): `chartroom lock` records them",
      "  not locked (2 images): registry not declared",
      "  not locked (1 image): 401 from the registry",
      "  `chartroom images` lists each",
      "  not rechecked: r.test/w:1 (a, dev): timed out",
      `  moved: r.test/v:2 (b, prod): ${digest("c")} → ${digest("d")}`,
    ]);
    expect(
      lockText(lock({ ...none, notRecorded: ["old"] }), plain, "/p")
        .split("\n")
        .slice(6),
    ).toStrictEqual(["images not recorded for old (locked by an older chartroom): `chartroom lock` records them"]);
    expect(
      lockText(lock({ ...none, locked: 3 }), plain, "/p")
        .split("\n")
        .slice(6),
    ).toStrictEqual(["images: 3 of 3 locked by digest"]);
  });
});

describe("the images report", () => {
  const report = (images: ImagesReport["images"], notRecorded: string[] = []): ImagesReport => ({ report: "images", format: 1, images, notRecorded });
  const rows: ImagesReport["images"] = [
    {
      chart: "a",
      stack: "dev",
      object: "Deployment.apps web/a",
      container: "containers[a]",
      image: "r.test/a:1",
      digest: digest("a"),
      pinned: true,
      platforms: 2,
    },
    { chart: "a", stack: "dev", object: "Deployment.apps web/b", container: "containers[b]", image: "r.test/b:1", digest: digest("b") },
    { chart: "a", stack: "dev", object: "Job.batch web/c", container: "containers[c]", image: "r.test/c:1", unresolved: "registry not declared" },
    { chart: "a", stack: "dev", object: "Job.batch web/d", container: "containers[d]", image: "r.test/d:1" },
  ] as ImagesReport["images"];

  it("prints each use with its digest, pinned, platforms, or why it is not locked, then the count", () => {
    const text = imagesText(report(rows, ["old"]), plain).split("\n");
    expect(text.slice(1, 5).map((line) => line.split(/ {2,}/).slice(5))).toStrictEqual([
      [`${digest("a").slice(0, 19)}… pinned`, "2"],
      [`${digest("b").slice(0, 19)}…`, "-"],
      ["(not locked: registry not declared)", "-"],
      ["(not locked: unknown)", "-"],
    ]);
    expect(text.slice(-2)).toStrictEqual(["2 of 4 image uses locked by digest", "no images recorded for old: run `chartroom lock`"]);
    expect(imagesText(report([]), plain)).toBe("0 of 0 image uses locked by digest");
  });

  it("puts the count first in markdown, and the whole digest in each row", () => {
    const markdown = imagesMarkdown(report(rows)).split("\n");
    expect(markdown[0]).toBe("2 of 4 image uses locked by digest");
    expect(markdown.slice(4).map((line) => line.split(" | ").slice(5))).toStrictEqual([
      [`\`${digest("a")}\` (pinned)`, "2 |"],
      [`\`${digest("b")}\``, "- |"],
      ["not locked: registry not declared", "- |"],
      ["not locked: unknown", "- |"],
    ]);
  });
});
