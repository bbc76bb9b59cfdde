package check

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// manifests decodes every file of deploy/kubernetes strictly into its
// official type; a field the API does not know fails here.
type manifests struct {
	deploy    appsv1.Deployment
	service   corev1.Service
	pdb       policyv1.PodDisruptionBudget
	netpol    networkingv1.NetworkPolicy
	monitor   monitoringv1.ServiceMonitor
	rule      monitoringv1.PrometheusRule
	dashboard corev1.ConfigMap
	kustom    kustomization
}

// kustomization mirrors the kustomize.config.k8s.io/v1beta1 fields used.
type kustomization struct {
	APIVersion string   `json:"apiVersion"`
	Kind       string   `json:"kind"`
	Namespace  string   `json:"namespace"`
	Resources  []string `json:"resources"`
	Patches    []struct {
		Path   string `json:"path"`
		Target *struct {
			Group   string `json:"group"`
			Version string `json:"version"`
			Kind    string `json:"kind"`
			Name    string `json:"name"`
		} `json:"target"`
	} `json:"patches"`
}

func loadManifests(t *testing.T) *manifests {
	t.Helper()
	m := &manifests{}
	dir := deployPath("kubernetes")
	decodeStrict(t, filepath.Join(dir, "deployment.yaml"), &m.deploy)
	decodeStrict(t, filepath.Join(dir, "service.yaml"), &m.service)
	decodeStrict(t, filepath.Join(dir, "pdb.yaml"), &m.pdb)
	decodeStrict(t, filepath.Join(dir, "networkpolicy.yaml"), &m.netpol)
	decodeStrict(t, filepath.Join(dir, "servicemonitor.yaml"), &m.monitor)
	decodeStrict(t, filepath.Join(dir, "prometheusrule.yaml"), &m.rule)
	decodeStrict(t, filepath.Join(dir, "grafana-dashboard.yaml"), &m.dashboard)
	decodeStrict(t, filepath.Join(dir, "kustomization.yaml"), &m.kustom)
	for _, c := range []struct {
		got       metav1.TypeMeta
		api, kind string
	}{
		{m.deploy.TypeMeta, "apps/v1", "Deployment"},
		{m.service.TypeMeta, "v1", "Service"},
		{m.pdb.TypeMeta, "policy/v1", "PodDisruptionBudget"},
		{m.netpol.TypeMeta, "networking.k8s.io/v1", "NetworkPolicy"},
		{m.monitor.TypeMeta, "monitoring.coreos.com/v1", "ServiceMonitor"},
		{m.rule.TypeMeta, "monitoring.coreos.com/v1", "PrometheusRule"},
		{m.dashboard.TypeMeta, "v1", "ConfigMap"},
	} {
		if c.got.APIVersion != c.api || c.got.Kind != c.kind {
			t.Errorf("got %s/%s, want %s/%s", c.got.APIVersion, c.got.Kind, c.api, c.kind)
		}
	}
	return m
}

func (m *manifests) container(t *testing.T) *corev1.Container {
	t.Helper()
	cs := m.deploy.Spec.Template.Spec.Containers
	if len(cs) != 1 {
		t.Fatalf("deployment: want one container, have %d", len(cs))
	}
	return &cs[0]
}

func envOf(c *corev1.Container) map[string]corev1.EnvVar {
	out := map[string]corev1.EnvVar{}
	for _, e := range c.Env {
		out[e.Name] = e
	}
	return out
}

// containerPort resolves a probe or Service target port against the
// container's named ports.
func containerPort(c *corev1.Container, p intstr.IntOrString) (int32, bool) {
	if p.Type == intstr.Int {
		return p.IntVal, true
	}
	for _, cp := range c.Ports {
		if cp.Name == p.StrVal {
			return cp.ContainerPort, true
		}
	}
	return 0, false
}

func TestKubernetesFilesAreListed(t *testing.T) {
	m := loadManifests(t)
	if m.kustom.APIVersion != "kustomize.config.k8s.io/v1beta1" || m.kustom.Kind != "Kustomization" {
		t.Errorf("kustomization.yaml: %s/%s", m.kustom.APIVersion, m.kustom.Kind)
	}
	entries, err := os.ReadDir(deployPath("kubernetes"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".yaml") && e.Name() != "kustomization.yaml" {
			files = append(files, e.Name())
		}
	}
	res := slices.Clone(m.kustom.Resources)
	slices.Sort(res)
	if !slices.Equal(files, res) {
		t.Errorf("kustomization resources %v, manifests in the directory %v", res, files)
	}
}

func TestDeploymentSecurity(t *testing.T) {
	m := loadManifests(t)
	pod := m.deploy.Spec.Template.Spec
	c := m.container(t)

	psc := pod.SecurityContext
	if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot {
		t.Error("pod securityContext.runAsNonRoot must be true")
	}
	if psc == nil || psc.RunAsUser == nil || *psc.RunAsUser == 0 {
		t.Error("pod securityContext.runAsUser must be a non-zero uid (runAsNonRoot cannot check a named USER)")
	}
	if psc == nil || psc.SeccompProfile == nil || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Error("pod seccompProfile must be RuntimeDefault")
	}
	if pod.AutomountServiceAccountToken == nil || *pod.AutomountServiceAccountToken {
		t.Error("automountServiceAccountToken must be false: the service never calls the API server")
	}
	if pod.HostNetwork || pod.HostPID || pod.HostIPC {
		t.Error("no host namespaces")
	}

	sc := c.SecurityContext
	if sc == nil {
		t.Fatal("container securityContext missing")
	}
	if sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
		t.Error("readOnlyRootFilesystem must be true")
	}
	if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
		t.Error("allowPrivilegeEscalation must be false")
	}
	if sc.Privileged != nil && *sc.Privileged {
		t.Error("privileged must not be true")
	}
	if sc.RunAsNonRoot != nil && !*sc.RunAsNonRoot {
		t.Error("container runAsNonRoot must not be false")
	}
	if sc.RunAsUser != nil && *sc.RunAsUser == 0 {
		t.Error("container runAsUser must not be 0")
	}
	if sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") {
		t.Error("capabilities must drop ALL")
	}
	if sc.Capabilities != nil && len(sc.Capabilities.Add) > 0 {
		t.Errorf("no capability may be added, have %v", sc.Capabilities.Add)
	}
	if sc.SeccompProfile != nil && sc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Error("container seccompProfile, when set, must be RuntimeDefault")
	}
	for _, v := range pod.Volumes {
		if v.HostPath != nil {
			t.Errorf("volume %s: no hostPath", v.Name)
		}
	}
}

func TestDeploymentPortsAndProbes(t *testing.T) {
	m := loadManifests(t)
	c := m.container(t)
	env := envOf(c)

	want := map[string]int32{"api": 8080, "ops": 9090}
	for name, port := range want {
		got, ok := containerPort(c, intstr.FromString(name))
		if !ok || got != port {
			t.Errorf("container port %q: got %d, want %d", name, got, port)
		}
	}
	// The listeners must be where the ports say.
	for v, port := range map[string]int32{"LISTEN_ADDR": 8080, "OPS_ADDR": 9090} {
		if !strings.HasSuffix(env[v].Value, ":"+strconv.Itoa(int(port))) {
			t.Errorf("%s=%q does not listen on %d", v, env[v].Value, port)
		}
	}

	probe := func(name string, p *corev1.Probe, path string) {
		if p == nil || p.HTTPGet == nil {
			t.Errorf("%s: want an httpGet probe", name)
			return
		}
		if p.HTTPGet.Path != path {
			t.Errorf("%s: path %q, want %q", name, p.HTTPGet.Path, path)
		}
		if port, ok := containerPort(c, p.HTTPGet.Port); !ok || port != 9090 {
			t.Errorf("%s: port %v resolves to %d, want the ops port 9090", name, p.HTTPGet.Port.String(), port)
		}
	}
	probe("livenessProbe", c.LivenessProbe, "/healthz")
	probe("readinessProbe", c.ReadinessProbe, "/readyz")
	if c.StartupProbe != nil {
		probe("startupProbe", c.StartupProbe, "/healthz")
	}
}

func TestDeploymentResourcesAndShutdown(t *testing.T) {
	m := loadManifests(t)
	spec := m.deploy.Spec.Template.Spec
	c := m.container(t)
	env := envOf(c)

	lim, req := c.Resources.Limits, c.Resources.Requests
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		l, lok := lim[r]
		q, qok := req[r]
		if !lok || !qok {
			t.Errorf("%s: want both a request and a limit", r)
			continue
		}
		if q.Cmp(l) > 0 {
			t.Errorf("%s: request %s above limit %s", r, q.String(), l.String())
		}
	}
	// 25,000 streams need about 700 MiB; a limit far from ~1 GiB means the
	// sizing comment, the alert thresholds and GOMEMLIMIT need revisiting.
	memLimit := lim[corev1.ResourceMemory]
	if memLimit.Cmp(resource.MustParse("768Mi")) < 0 || memLimit.Cmp(resource.MustParse("2Gi")) > 0 {
		t.Errorf("memory limit %s outside the 768Mi-2Gi range sized for 25,000 streams", memLimit.String())
	}
	gml, ok := env["GOMEMLIMIT"]
	if !ok {
		t.Error("GOMEMLIMIT should be set below the memory limit")
	} else if n, err := parseByteSize(gml.Value); err != nil {
		t.Error(err)
	} else if n >= memLimit.Value() || n < memLimit.Value()*3/4 {
		t.Errorf("GOMEMLIMIT %s should sit between 75%% and 100%% of the memory limit %s", gml.Value, memLimit.String())
	}

	// Drain: preStop, then SIGTERM and SHUTDOWN_TIMEOUT, all inside the grace period.
	shutdown, err := time.ParseDuration(env["SHUTDOWN_TIMEOUT"].Value)
	if err != nil {
		t.Fatalf("SHUTDOWN_TIMEOUT: %v", err)
	}
	var preStop time.Duration
	if lc := c.Lifecycle; lc != nil && lc.PreStop != nil {
		if lc.PreStop.Sleep == nil {
			t.Error("preStop: the image has no shell; only the sleep action can work")
		} else {
			preStop = time.Duration(lc.PreStop.Sleep.Seconds) * time.Second
		}
	}
	if spec.TerminationGracePeriodSeconds == nil {
		t.Fatal("terminationGracePeriodSeconds must be set")
	}
	grace := time.Duration(*spec.TerminationGracePeriodSeconds) * time.Second
	// The process exits within SHUTDOWN_TIMEOUT + 5 s (CONTRACT section 9).
	if grace <= preStop+shutdown+5*time.Second {
		t.Errorf("terminationGracePeriodSeconds %v must exceed preStop %v + SHUTDOWN_TIMEOUT %v + 5 s", grace, preStop, shutdown)
	}
}

func TestDeploymentEnvironment(t *testing.T) {
	m := loadManifests(t)
	env := envOf(m.container(t))
	defaults := serviceDefaults(t)
	// Variables deliberately set away from the service default, with why.
	differ := map[string]bool{
		// Empty in the service (it cannot guess its address); required in
		// production, where co-signers' wallets post their signatures back
		// to it (TestPublicURLRequired).
		"PUBLIC_URL": true,
	}
	for name, def := range defaults {
		e, ok := env[name]
		if !ok {
			t.Errorf("env %s (read by the service) is not set in the Deployment", name)
			continue
		}
		if name == "MEDIATOR_SECRET" {
			continue
		}
		if e.ValueFrom != nil {
			t.Errorf("env %s: expected a literal value", name)
		} else if e.Value != def && !differ[name] {
			t.Errorf("env %s=%q differs from the service default %q without a reason recorded in this test", name, e.Value, def)
		}
	}
	sec, ok := env["MEDIATOR_SECRET"]
	switch {
	case !ok:
	case sec.Value != "":
		t.Error("MEDIATOR_SECRET must never be a literal in the manifest")
	case sec.ValueFrom == nil || sec.ValueFrom.SecretKeyRef == nil:
		t.Error("MEDIATOR_SECRET must come from a Secret (secretKeyRef)")
	case sec.ValueFrom.SecretKeyRef.Optional == nil || !*sec.ValueFrom.SecretKeyRef.Optional:
		t.Error("MEDIATOR_SECRET's secretKeyRef must be optional: the mediator is an optional feature")
	}
}

func TestReplicasAndAffinity(t *testing.T) {
	m := loadManifests(t)
	replicas := int32(1)
	if m.deploy.Spec.Replicas != nil {
		replicas = *m.deploy.Spec.Replicas
	}
	// Single mode: plans live in one process's memory, and neither a
	// Service nor an ingress can route by plan id. More replicas are cluster
	// mode's (deploy/kubernetes-cluster, TestClusterOverlay).
	if replicas != 1 {
		t.Errorf("replicas = %d: plans are per-instance memory in single mode; raise them in deploy/kubernetes-cluster with NATS_URL", replicas)
	}
	if m.deploy.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
		t.Errorf("strategy %q: a rolling update runs two instances at once and splits new plans between them", m.deploy.Spec.Strategy.Type)
	}
}

func TestSelectorsMatch(t *testing.T) {
	m := loadManifests(t)
	podLabels := labels.Set(m.deploy.Spec.Template.Labels)

	sel, err := metav1.LabelSelectorAsSelector(m.deploy.Spec.Selector)
	if err != nil || !sel.Matches(podLabels) {
		t.Errorf("deployment selector does not match its pod template (%v)", err)
	}
	if len(m.service.Spec.Selector) == 0 || !labels.SelectorFromSet(m.service.Spec.Selector).Matches(podLabels) {
		t.Error("service selector does not match the pods")
	}
	if sel, err := metav1.LabelSelectorAsSelector(m.pdb.Spec.Selector); err != nil || !sel.Matches(podLabels) {
		t.Errorf("pdb selector does not match the pods (%v)", err)
	}
	if sel, err := metav1.LabelSelectorAsSelector(&m.netpol.Spec.PodSelector); err != nil || sel.Empty() || !sel.Matches(podLabels) {
		t.Errorf("networkpolicy podSelector must select exactly these pods (%v)", err)
	}
	if sel, err := metav1.LabelSelectorAsSelector(&m.monitor.Spec.Selector); err != nil || sel.Empty() || !sel.Matches(labels.Set(m.service.Labels)) {
		t.Errorf("servicemonitor selector does not match the service's labels (%v)", err)
	}
}

func TestServicePorts(t *testing.T) {
	m := loadManifests(t)
	c := m.container(t)
	want := map[string]int32{"api": 8080, "ops": 9090}
	if len(m.service.Spec.Ports) != len(want) {
		t.Errorf("service: want ports %v, have %d", want, len(m.service.Spec.Ports))
	}
	for _, p := range m.service.Spec.Ports {
		if want[p.Name] != p.Port {
			t.Errorf("service port %q = %d, want %d", p.Name, p.Port, want[p.Name])
		}
		if got, ok := containerPort(c, p.TargetPort); !ok || got != want[p.Name] {
			t.Errorf("service port %q targets %s, which is container port %d", p.Name, p.TargetPort.String(), got)
		}
	}
	if m.service.Name != "closerelay" {
		t.Errorf("service name %q: the Prometheus Operator derives job=%q from it, and the alerts expect job=\"closerelay\"", m.service.Name, m.service.Name)
	}
	if m.service.Spec.Type == corev1.ServiceTypeLoadBalancer || m.service.Spec.Type == corev1.ServiceTypeNodePort {
		t.Errorf("service type %s would publish the ops port; expose only api through an Ingress", m.service.Spec.Type)
	}
}

func TestPodDisruptionBudget(t *testing.T) {
	m := loadManifests(t)
	if (m.pdb.Spec.MinAvailable == nil) == (m.pdb.Spec.MaxUnavailable == nil) {
		t.Error("pdb: set exactly one of minAvailable and maxUnavailable")
	}
}

func TestNetworkPolicy(t *testing.T) {
	m := loadManifests(t)
	checkNetworkPolicy(t, m.container(t), m.netpol.Spec)
}

// checkNetworkPolicy holds in both modes: the cluster overlay only adds an
// egress rule.
func checkNetworkPolicy(t *testing.T, c *corev1.Container, np networkingv1.NetworkPolicySpec) {
	t.Helper()
	if !slices.Contains(np.PolicyTypes, networkingv1.PolicyTypeIngress) || !slices.Contains(np.PolicyTypes, networkingv1.PolicyTypeEgress) {
		t.Errorf("policyTypes %v: want Ingress and Egress", np.PolicyTypes)
	}

	apiOpen, opsOpen := false, false
	for i, r := range np.Ingress {
		if len(r.Ports) == 0 {
			t.Errorf("ingress rule %d: name its ports; an all-ports rule would open 9090", i)
		}
		for _, p := range r.Ports {
			if p.Port == nil {
				t.Errorf("ingress rule %d: a rule without a port opens every port", i)
				continue
			}
			port, ok := containerPort(c, *p.Port)
			if !ok {
				t.Errorf("ingress rule %d: port %s is not a container port", i, p.Port.String())
			}
			switch port {
			case 8080:
				apiOpen = true
			case 9090:
				opsOpen = true
				// Only from the monitoring namespace: never an open peer.
				if len(r.From) == 0 {
					t.Errorf("ingress rule %d opens the ops port to everyone", i)
				}
				for _, peer := range r.From {
					if peer.IPBlock != nil || peer.NamespaceSelector == nil ||
						peer.NamespaceSelector.MatchLabels["kubernetes.io/metadata.name"] != "monitoring" {
						t.Errorf("ingress rule %d: the ops port must admit only the monitoring namespace", i)
					}
				}
			}
		}
	}
	if !apiOpen || !opsOpen {
		t.Errorf("ingress must admit the api port (%v) and the ops port (%v)", apiOpen, opsOpen)
	}

	dnsUDP, https := false, false
	for _, r := range np.Egress {
		for _, p := range r.Ports {
			if p.Port == nil {
				t.Error("egress rule without a port opens every port")
				continue
			}
			proto := corev1.ProtocolTCP
			if p.Protocol != nil {
				proto = *p.Protocol
			}
			switch {
			case p.Port.IntValue() == 53 && proto == corev1.ProtocolUDP:
				dnsUDP = true
			case p.Port.IntValue() == 443 && proto == corev1.ProtocolTCP:
				https = true
			}
		}
	}
	if !dnsUDP || !https {
		t.Errorf("egress must allow DNS over UDP (%v) and HTTPS to Horizon (%v)", dnsUDP, https)
	}
}

func TestServiceMonitor(t *testing.T) {
	m := loadManifests(t)
	eps := m.monitor.Spec.Endpoints
	if len(eps) != 1 {
		t.Fatalf("servicemonitor: want one endpoint, have %d", len(eps))
	}
	ep := eps[0]
	if ep.Port != "ops" {
		t.Errorf("servicemonitor endpoint port must be the Service's ops port")
	}
	path := ep.Path
	if path == "" {
		path = "/metrics"
	}
	if path != "/metrics" {
		t.Errorf("servicemonitor path %q, want /metrics", path)
	}
	if ep.Interval != "" {
		if d, err := time.ParseDuration(string(ep.Interval)); err != nil || d > time.Minute {
			t.Errorf("scrape interval %q: keep it at or under 1m for the 5m alert windows", ep.Interval)
		}
	}
}

// TestStrictDecodeRefusesUnknownFields guards the guard: a misspelt field,
// nested or not, must fail decoding rather than be dropped silently.
func TestStrictDecodeRefusesUnknownFields(t *testing.T) {
	dir := t.TempDir()
	for name, doc := range map[string]string{
		"top.yaml":    "apiVersion: apps/v1\nkind: Deployment\nspec:\n  replica: 1\n",
		"nested.yaml": "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - name: x\n          readinesProbe: {}\n",
		"dup.yaml":    "apiVersion: apps/v1\nkind: Deployment\nkind: Deployment\n",
		"case.yaml":   "apiVersion: apps/v1\nkind: Deployment\nspec:\n  Replicas: 1\n",
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		var d appsv1.Deployment
		if err := decodeStrictErr(path, &d); err == nil {
			t.Errorf("%s: decoded without error", name)
		} else {
			t.Logf("%s: refused as expected: %v", name, err)
		}
	}
}
