import { createHash } from "node:crypto";
import { stringify } from "yaml";

/**
 * A Helm index shaped like a busy public repository: many charts, dozens of
 * versions each, every entry with the fields real indexes carry (maintainers,
 * sources, keywords, annotations, dependencies), so its size per entry is
 * realistic.
 */
export function generateIndex(options: { charts: number; versionsPerChart: number; urlBase?: string }): { text: string; entries: number; names: string[] } {
  const entries: Record<string, unknown[]> = {};
  const names: string[] = [];
  for (let c = 0; c < options.charts; c++) {
    const name = `chart-${String(c).padStart(3, "0")}`;
    names.push(name);
    const list: unknown[] = [];
    for (let v = options.versionsPerChart - 1; v >= 0; v--) {
      const version = `${Math.floor(v / 20)}.${Math.floor(v / 5) % 4}.${v % 5}`;
      const file = `${name}-${version}.tgz`;
      list.push({
        annotations: {
          "artifacthub.io/changes": `- kind: changed\n  description: Update ${name} to ${version}\n- kind: fixed\n  description: Probe timeouts\n`,
          "artifacthub.io/license": "Apache-2.0",
          "artifacthub.io/links": `- name: Documentation\n  url: https://docs.example.test/${name}\n`,
        },
        apiVersion: "v2",
        appVersion: `${2 + Math.floor(v / 20)}.${v % 13}.${v % 7}`,
        created: new Date(Date.UTC(2024, 0, 1) + (c * options.versionsPerChart + v) * 3_600_000).toISOString(),
        dependencies: [{ name: "common", repository: "oci://registry.example.test/charts", version: "2.x.x", tags: ["bitnami-common"] }],
        description: `${name} is a generated chart used to benchmark index parsing; it deploys a web service with an optional database and metrics exporter.`,
        digest: createHash("sha256").update(file).digest("hex"),
        home: `https://example.test/charts/${name}`,
        icon: `https://example.test/icons/${name}.svg`,
        keywords: ["web", "http", "service", "benchmark", name],
        kubeVersion: ">=1.23.0-0",
        maintainers: [
          { name: "Platform Team", email: "platform@example.test", url: "https://example.test/team" },
          { name: "Release Bot", email: "release@example.test" },
        ],
        name,
        sources: [`https://git.example.test/charts/${name}`, `https://git.example.test/images/${name}`],
        type: "application",
        urls: [options.urlBase ? `${options.urlBase}/${file}` : file],
        version,
      });
    }
    entries[name] = list;
  }
  const text = stringify({ apiVersion: "v1", entries, generated: "2026-11-01T00:00:00Z" }, { lineWidth: 0 });
  return { text, entries: options.charts * options.versionsPerChart, names };
}
