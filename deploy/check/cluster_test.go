package check

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// clusterDir is cluster mode's kustomize overlay. It cannot live inside
// deploy/kubernetes: kustomize refuses a base whose directory contains the
// overlay (a cycle).
var clusterDir = deployPath("kubernetes-cluster")

// renderedObjects is a kustomization built with kustomize's own library
// (what kubectl apply -k runs), every object decoded strictly into its type.
type renderedObjects struct {
	deploy    appsv1.Deployment
	service   corev1.Service
	pdb       policyv1.PodDisruptionBudget
	netpol    networkingv1.NetworkPolicy
	ingress   networkingv1.Ingress
	monitor   monitoringv1.ServiceMonitor
	rule      monitoringv1.PrometheusRule
	dashboard corev1.ConfigMap
}

func renderKustomization(t *testing.T, dir string) *renderedObjects {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	rm, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), abs)
	if err != nil {
		t.Fatalf("kustomize build %s: %v", rel(dir), err)
	}
	out := &renderedObjects{}
	targets := map[string]any{
		"apps/v1/Deployment":                      &out.deploy,
		"v1/Service":                              &out.service,
		"policy/v1/PodDisruptionBudget":           &out.pdb,
		"networking.k8s.io/v1/NetworkPolicy":      &out.netpol,
		"networking.k8s.io/v1/Ingress":            &out.ingress,
		"monitoring.coreos.com/v1/ServiceMonitor": &out.monitor,
		"monitoring.coreos.com/v1/PrometheusRule": &out.rule,
		"v1/ConfigMap":                            &out.dashboard,
	}
	seen := map[string]bool{}
	for _, r := range rm.Resources() {
		gvk := r.GetApiVersion() + "/" + r.GetKind()
		target, ok := targets[gvk]
		if !ok {
			t.Errorf("kustomize build %s: unexpected %s %s", rel(dir), gvk, r.GetName())
			continue
		}
		if seen[gvk] {
			t.Errorf("kustomize build %s: two objects of kind %s", rel(dir), gvk)
		}
		seen[gvk] = true
		b, err := r.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		if err := unmarshalStrict(b, target); err != nil {
			t.Errorf("kustomize build %s: %s %s: strict decode: %v", rel(dir), gvk, r.GetName(), err)
		}
		if r.GetNamespace() != "closerelay" {
			t.Errorf("kustomize build %s: %s %s in namespace %q, want closerelay", rel(dir), gvk, r.GetName(), r.GetNamespace())
		}
	}
	for gvk := range targets {
		if !seen[gvk] {
			t.Errorf("kustomize build %s: no %s", rel(dir), gvk)
		}
	}
	return out
}

// TestKustomizeBuildsSingleMode: the base builds, and building changes
// nothing but the namespace of what the files say.
func TestKustomizeBuildsSingleMode(t *testing.T) {
	r := renderKustomization(t, deployPath("kubernetes"))
	m := loadManifests(t)
	if r.deploy.Namespace = ""; !equalJSON(t, r.deploy, m.deploy) {
		t.Error("the built Deployment differs from deployment.yaml beyond its namespace")
	}
	if r.rule.Namespace = ""; !equalJSON(t, r.rule, m.rule) {
		t.Error("the built PrometheusRule differs from prometheusrule.yaml beyond its namespace")
	}
}

func equalJSON(t *testing.T, a, b any) bool {
	t.Helper()
	aj, err := yaml.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	bj, err := yaml.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(aj) == string(bj)
}

// jsonPatchOp is one RFC 6902 operation of the NetworkPolicy patch.
type jsonPatchOp struct {
	Op    string                               `json:"op"`
	Path  string                               `json:"path"`
	Value networkingv1.NetworkPolicyEgressRule `json:"value"`
}

// TestClusterOverlayFiles decodes every file of the overlay strictly: the
// strategic merge patches into their API types, the JSON patch into
// operations on a NetworkPolicy egress rule, and checks that each is used.
func TestClusterOverlayFiles(t *testing.T) {
	var k kustomization
	decodeStrict(t, filepath.Join(clusterDir, "kustomization.yaml"), &k)
	if k.APIVersion != "kustomize.config.k8s.io/v1beta1" || k.Kind != "Kustomization" {
		t.Errorf("kustomization.yaml: %s/%s", k.APIVersion, k.Kind)
	}
	if !slices.Equal(k.Resources, []string{"../kubernetes"}) {
		t.Errorf("resources %v: the overlay patches the single-mode files, want [../kubernetes]", k.Resources)
	}
	var patches []string
	for _, p := range k.Patches {
		patches = append(patches, p.Path)
	}
	entries, err := os.ReadDir(clusterDir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		// nats-values.yaml is Helm's, not kustomize's.
		if strings.HasSuffix(e.Name(), ".yaml") && e.Name() != "kustomization.yaml" && e.Name() != "nats-values.yaml" {
			files = append(files, e.Name())
		}
	}
	slices.Sort(patches)
	if !slices.Equal(files, patches) {
		t.Errorf("kustomization patches %v, patch files in the directory %v", patches, files)
	}

	var d appsv1.Deployment
	decodeStrict(t, filepath.Join(clusterDir, "deployment.yaml"), &d)
	var pdb policyv1.PodDisruptionBudget
	decodeStrict(t, filepath.Join(clusterDir, "pdb.yaml"), &pdb)
	var ops []jsonPatchOp
	decodeStrict(t, filepath.Join(clusterDir, "networkpolicy.yaml"), &ops)
	for _, op := range ops {
		if op.Op != "add" || op.Path != "/spec/egress/-" {
			t.Errorf("networkpolicy.yaml: %s %s: the overlay only appends egress rules", op.Op, op.Path)
		}
	}
	var v natsValues
	decodeStrict(t, filepath.Join(clusterDir, "nats-values.yaml"), &v)
}

// natsValues mirrors the values of the NATS Helm chart (nats/nats 2.x,
// values.yaml) that nats-values.yaml sets; strict decoding refuses a key
// this mirror does not know, so a misspelt key fails here instead of being
// ignored by Helm.
type natsValues struct {
	Config struct {
		Cluster struct {
			Enabled  bool  `json:"enabled"`
			Replicas int32 `json:"replicas"`
		} `json:"cluster"`
		JetStream struct {
			Enabled   bool `json:"enabled"`
			FileStore struct {
				Enabled bool `json:"enabled"`
			} `json:"fileStore"`
			MemoryStore struct {
				Enabled bool              `json:"enabled"`
				MaxSize resource.Quantity `json:"maxSize"`
			} `json:"memoryStore"`
		} `json:"jetstream"`
	} `json:"config"`
	Container struct {
		Env       map[string]string           `json:"env"`
		Resources corev1.ResourceRequirements `json:"resources"`
	} `json:"container"`
	PodTemplate struct {
		TopologySpreadConstraints map[string]struct {
			MaxSkew           int32                                `json:"maxSkew"`
			WhenUnsatisfiable corev1.UnsatisfiableConstraintAction `json:"whenUnsatisfiable"`
		} `json:"topologySpreadConstraints"`
	} `json:"podTemplate"`
}

// natsRelease is the Helm release name the overlay assumes, from the
// install command in deploy/RUNBOOK.md: the chart names its client Service
// after it and labels its pods with it.
func natsRelease(t *testing.T) string {
	t.Helper()
	m := regexp.MustCompile(`helm install (\S+) nats/nats`).FindStringSubmatch(string(readFile(t, deployPath("RUNBOOK.md"))))
	if m == nil {
		t.Fatal("deploy/RUNBOOK.md: no `helm install <release> nats/nats` line")
	}
	if vm := regexp.MustCompile(`helm install (\S+) nats/nats`).FindStringSubmatch(string(readFile(t, filepath.Join(clusterDir, "nats-values.yaml")))); vm == nil || vm[1] != m[1] {
		t.Errorf("nats-values.yaml's install line names another release than deploy/RUNBOOK.md's (%q)", m[1])
	}
	return m[1]
}

func TestClusterOverlay(t *testing.T) {
	r := renderKustomization(t, clusterDir)
	base := loadManifests(t)
	dep := r.deploy
	if len(dep.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("cluster Deployment: want one container, have %d", len(dep.Spec.Template.Spec.Containers))
	}
	c := &dep.Spec.Template.Spec.Containers[0]
	env := envOf(c)
	podLabels := labels.Set(dep.Spec.Template.Labels)

	// Replicas, rollout and budget: several replicas; a rollout and a
	// drain each take some, never all.
	if dep.Spec.Replicas == nil || *dep.Spec.Replicas < 2 {
		t.Fatalf("cluster Deployment: replicas %d, want at least 2", ptrOr(dep.Spec.Replicas, 1))
	}
	replicas := int(*dep.Spec.Replicas)
	if dep.Spec.Strategy.Type != appsv1.RollingUpdateDeploymentStrategyType || dep.Spec.Strategy.RollingUpdate == nil {
		t.Errorf("cluster Deployment: strategy %q, want RollingUpdate: plans survive a replica's exit", dep.Spec.Strategy.Type)
	} else {
		ru := dep.Spec.Strategy.RollingUpdate
		unavail := scaled(t, "maxUnavailable", ru.MaxUnavailable, replicas, false)
		surge := scaled(t, "maxSurge", ru.MaxSurge, replicas, true)
		if unavail < 1 && surge < 1 {
			t.Error("rollout with neither maxUnavailable nor maxSurge cannot progress")
		}
		if unavail >= replicas {
			t.Errorf("rollout maxUnavailable %d of %d replicas: the whole relay may be down at once", unavail, replicas)
		}
	}
	pdb := r.pdb.Spec
	if (pdb.MinAvailable == nil) == (pdb.MaxUnavailable == nil) {
		t.Error("cluster pdb: set exactly one of minAvailable and maxUnavailable (the base's minAvailable must be removed)")
	} else {
		allowed := 0
		if pdb.MaxUnavailable != nil {
			allowed = scaled(t, "pdb maxUnavailable", pdb.MaxUnavailable, replicas, true)
		} else {
			allowed = replicas - scaled(t, "pdb minAvailable", pdb.MinAvailable, replicas, true)
		}
		if allowed < 1 {
			t.Errorf("cluster pdb allows no eviction of %d replicas: node drains would wait for an operator, which cluster mode does not need", replicas)
		}
		if allowed >= replicas {
			t.Errorf("cluster pdb allows evicting all %d replicas at once", replicas)
		}
	}
	if sel, err := metav1.LabelSelectorAsSelector(r.pdb.Spec.Selector); err != nil || !sel.Matches(podLabels) {
		t.Errorf("cluster pdb selector does not match the pods (%v)", err)
	}
	if v := dep.Spec.Template.Annotations["cluster-autoscaler.kubernetes.io/safe-to-evict"]; v != "true" {
		t.Errorf("safe-to-evict %q: an eviction loses no plan in cluster mode", v)
	}
	spreadByNode := false
	for _, tsc := range dep.Spec.Template.Spec.TopologySpreadConstraints {
		sel, err := metav1.LabelSelectorAsSelector(tsc.LabelSelector)
		if err != nil || !sel.Matches(podLabels) {
			t.Errorf("topologySpreadConstraint %s: selector does not match the pods (%v)", tsc.TopologyKey, err)
		}
		if tsc.TopologyKey == "kubernetes.io/hostname" && tsc.WhenUnsatisfiable == corev1.DoNotSchedule {
			spreadByNode = true
		}
	}
	if !spreadByNode {
		t.Error("cluster Deployment: no hard spread over kubernetes.io/hostname: one node's loss could take every replica")
	}

	// Environment: the base's, with cluster mode's three set.
	defaults := serviceDefaults(t)
	for name := range defaults {
		if _, ok := env[name]; !ok {
			t.Errorf("cluster Deployment: env %s (read by the service) is missing", name)
		}
	}
	baseEnv := envOf(base.container(t))
	for name, e := range env {
		if strings.HasPrefix(name, "NATS_") {
			continue
		}
		if b, ok := baseEnv[name]; !ok || !equalJSON(t, b, e) {
			t.Errorf("cluster Deployment: env %s differs from the base; the overlay changes only NATS_*", name)
		}
	}
	natsURL := env["NATS_URL"].Value
	if natsURL == "" {
		t.Fatal("cluster Deployment: NATS_URL is empty, which is single mode")
	}
	release := natsRelease(t)
	var natsPorts []int32
	for _, raw := range strings.Split(natsURL, ",") {
		u, err := url.Parse(strings.TrimSpace(raw))
		if err != nil || (u.Scheme != "nats" && u.Scheme != "tls") || u.Hostname() == "" {
			t.Errorf("NATS_URL entry %q is not a nats:// or tls:// URL with a host", raw)
			continue
		}
		if u.User != nil {
			t.Error("NATS_URL carries credentials as a literal; take them from a Secret")
		}
		port := int32(4222)
		if p := u.Port(); p != "" {
			n, err := strconv.Atoi(p)
			if err != nil {
				t.Errorf("NATS_URL port %q", p)
			}
			port = int32(n)
		}
		natsPorts = append(natsPorts, port)
		// The chart's Service is named after the release (as the release
		// name contains the chart's name).
		if host := strings.Split(u.Hostname(), ".")[0]; host != release {
			t.Errorf("NATS_URL host %s is not the NATS chart's Service of release %q", u.Hostname(), release)
		}
	}
	if b := env["NATS_BUCKET"].Value; b != defaults["NATS_BUCKET"] {
		t.Errorf("NATS_BUCKET %q differs from the service default %q: every replica and every tool must name the same bucket", b, defaults["NATS_BUCKET"])
	}
	natsReplicas, err := strconv.Atoi(env["NATS_REPLICAS"].Value)
	if err != nil {
		t.Fatalf("NATS_REPLICAS %q: %v", env["NATS_REPLICAS"].Value, err)
	}
	// A replicated stream keeps taking writes while a majority of its
	// replicas is up: 3 survive one NATS server's loss (CONTRACT section
	// 12), 2 do not.
	if natsReplicas < 3 || natsReplicas%2 == 0 || natsReplicas > 5 {
		t.Errorf("NATS_REPLICAS %d: want 3 or 5 so the bucket survives the loss of a NATS server", natsReplicas)
	}

	// NATS itself, as nats-values.yaml installs it.
	var v natsValues
	decodeStrict(t, filepath.Join(clusterDir, "nats-values.yaml"), &v)
	if !v.Config.Cluster.Enabled || int(v.Config.Cluster.Replicas) < natsReplicas {
		t.Errorf("nats-values.yaml: cluster enabled %v with %d servers; NATS_REPLICAS=%d needs as many", v.Config.Cluster.Enabled, v.Config.Cluster.Replicas, natsReplicas)
	}
	js := v.Config.JetStream
	if !js.Enabled || !js.MemoryStore.Enabled {
		t.Error("nats-values.yaml: JetStream with the memory store must be enabled")
	}
	if js.FileStore.Enabled {
		t.Error("nats-values.yaml: the file store is on (and with it a PersistentVolumeClaim per server); the relay uses memory storage only")
	}
	// 500 plans of about 20 KB and a registry entry of at most 60 KB.
	need := resource.MustParse("10Mi")
	if js.MemoryStore.MaxSize.Cmp(need) < 0 {
		t.Errorf("nats-values.yaml: memoryStore.maxSize %s below the ~10 MB the bucket can hold", js.MemoryStore.MaxSize.String())
	}
	memLimit, ok := v.Container.Resources.Limits[corev1.ResourceMemory]
	if !ok {
		t.Error("nats-values.yaml: no container memory limit")
	} else if memLimit.Cmp(js.MemoryStore.MaxSize) <= 0 {
		t.Errorf("nats-values.yaml: memory limit %s not above memoryStore.maxSize %s (the store counts against the container)", memLimit.String(), js.MemoryStore.MaxSize.String())
	}
	if gml, ok := v.Container.Env["GOMEMLIMIT"]; ok {
		if n, err := parseByteSize(gml); err != nil {
			t.Error(err)
		} else if n >= memLimit.Value() || n <= js.MemoryStore.MaxSize.Value() {
			t.Errorf("nats-values.yaml: GOMEMLIMIT %s should sit between memoryStore.maxSize and the memory limit", gml)
		}
	}
	if s, ok := v.PodTemplate.TopologySpreadConstraints["kubernetes.io/hostname"]; !ok || s.WhenUnsatisfiable != corev1.DoNotSchedule {
		t.Error("nats-values.yaml: NATS servers not spread one per node: a node's loss could take the JetStream quorum")
	}

	// The network: the base's rules, plus the relay's way to NATS.
	checkNetworkPolicy(t, c, r.netpol.Spec)
	natsPods := labels.Set{
		"app.kubernetes.io/name":      "nats",
		"app.kubernetes.io/instance":  release,
		"app.kubernetes.io/component": "nats",
	}
	for _, port := range natsPorts {
		if !egressAllows(r.netpol.Spec, natsPods, port) {
			t.Errorf("NetworkPolicy: no egress to the NATS pods (%v) on TCP %d, the NATS_URL port", natsPods, port)
		}
	}
}

// scaled resolves a count or percentage of replicas.
func scaled(t *testing.T, what string, v *intstr.IntOrString, replicas int, roundUp bool) int {
	t.Helper()
	if v == nil {
		return 0
	}
	n, err := intstr.GetScaledValueFromIntOrPercent(v, replicas, roundUp)
	if err != nil {
		t.Errorf("%s %s: %v", what, v.String(), err)
	}
	return n
}

// egressAllows reports whether a rule admits TCP to port on pods with the
// given labels in the policy's own namespace.
func egressAllows(np networkingv1.NetworkPolicySpec, pod labels.Set, port int32) bool {
	for _, r := range np.Egress {
		peerOK := len(r.To) == 0
		for _, p := range r.To {
			if p.IPBlock != nil || p.NamespaceSelector != nil || p.PodSelector == nil {
				continue
			}
			if sel, err := metav1.LabelSelectorAsSelector(p.PodSelector); err == nil && sel.Matches(pod) {
				peerOK = true
			}
		}
		portOK := len(r.Ports) == 0
		for _, p := range r.Ports {
			proto := corev1.ProtocolTCP
			if p.Protocol != nil {
				proto = *p.Protocol
			}
			if proto == corev1.ProtocolTCP && p.Port != nil && p.Port.Type == intstr.Int && p.Port.IntVal == port {
				portOK = true
			}
		}
		if peerOK && portOK {
			return true
		}
	}
	return false
}

func ptrOr[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}
