import type { DocumentOptions, ParseOptions, SchemaOptions, Tags } from "yaml";

/**
 * How Helm reads values files and a chart's values.yaml (sigs.k8s.io/yaml,
 * go-yaml v2): YAML 1.1, so `enabled: yes` is true, `mode: 0644` is 420 and
 * a key `n:` is "false". go-yaml keeps timestamps and `1:20`-style numbers
 * as strings, so those YAML 1.1 forms are left out.
 */
export const HELM_YAML: ParseOptions & DocumentOptions & SchemaOptions = { version: "1.1", customTags: helmTags };

function helmTags(tags: Tags): Tags {
  return tags.filter((tag) => !(typeof tag === "object" && (tag.tag === "tag:yaml.org,2002:timestamp" || tag.format === "TIME")));
}
