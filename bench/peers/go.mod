// Pins the peers `npm run bench` measures chartroom against (dyff,
// kubeconform) and builds a small process-tree CPU meter; see bench/peers/build.sh.
module chartroom.local/bench/peers

go 1.26

require (
	github.com/homeport/dyff v1.12.0
	github.com/yannh/kubeconform v0.8.0
)

require (
	github.com/BurntSushi/toml v1.6.0 // indirect
	github.com/caarlos0/env/v11 v11.4.0 // indirect
	github.com/gonvenience/bunt v1.4.3 // indirect
	github.com/gonvenience/idem v0.0.3 // indirect
	github.com/gonvenience/neat v1.3.20 // indirect
	github.com/gonvenience/term v1.0.5 // indirect
	github.com/gonvenience/text v1.0.10 // indirect
	github.com/gonvenience/ytbx v1.5.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/lucasb-eyer/go-colorful v1.4.0 // indirect
	github.com/mattn/go-ciede2000 v0.0.0-20170301095244-782e8c62fec3 // indirect
	github.com/mattn/go-isatty v0.0.21 // indirect
	github.com/mitchellh/go-ps v1.0.0 // indirect
	github.com/mitchellh/hashstructure/v2 v2.0.2 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2 // indirect
	github.com/sergi/go-diff v1.4.0 // indirect
	github.com/spf13/cobra v1.10.2 // indirect
	github.com/spf13/pflag v1.0.10 // indirect
	github.com/texttheater/golang-levenshtein v1.0.1 // indirect
	github.com/virtuald/go-ordered-json v0.0.0-20170621173500-b18e6e673d74 // indirect
	go.yaml.in/yaml/v2 v2.4.4 // indirect
	go.yaml.in/yaml/v3 v3.0.4 // indirect
	golang.org/x/sync v0.20.0 // indirect
	golang.org/x/sys v0.43.0 // indirect
	golang.org/x/term v0.42.0 // indirect
	golang.org/x/text v0.37.0 // indirect
	k8s.io/kube-openapi v0.0.0-20260603220949-865597e52e25 // indirect
	k8s.io/utils v0.0.0-20260210185600-b8788abfbbc2 // indirect
	sigs.k8s.io/yaml v1.6.0 // indirect
)
