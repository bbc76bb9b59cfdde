package check

import (
	"net/url"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	networkingv1 "k8s.io/api/networking/v1"
)

// loadIngress decodes deploy/kubernetes/ingress.yaml strictly.
func loadIngress(t *testing.T) *networkingv1.Ingress {
	t.Helper()
	var ing networkingv1.Ingress
	decodeStrict(t, filepath.Join(deployPath("kubernetes"), "ingress.yaml"), &ing)
	return &ing
}

// publicURL is the Deployment's PUBLIC_URL, parsed; it fails the test when
// it is empty or not an absolute https:// URL: without it, the SEP-7 links
// carry no callback and a co-signer's wallet cannot send its signature back.
func publicURL(t *testing.T, m *manifests) *url.URL {
	t.Helper()
	e, ok := envOf(m.container(t))["PUBLIC_URL"]
	if !ok || e.Value == "" {
		t.Fatal(`PUBLIC_URL is empty in the Deployment: set it to the https:// URL the Ingress publishes (required in production)`)
	}
	u, err := url.Parse(e.Value)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		t.Fatalf("PUBLIC_URL %q: want an absolute https:// URL without query or fragment", e.Value)
	}
	return u
}

// TestPublicURLRequired: the production Deployment (and so the cluster
// overlay built on it) sets PUBLIC_URL, to the Ingress's host.
func TestPublicURLRequired(t *testing.T) {
	m := loadManifests(t)
	u := publicURL(t, m)
	ing := loadIngress(t)
	for _, r := range ing.Spec.Rules {
		if r.Host != u.Hostname() {
			t.Errorf("Ingress host %q, PUBLIC_URL host %q: they must be the same", r.Host, u.Hostname())
		}
	}
}

// TestIngressForStreams: the Ingress routes only the API port of the
// Service, under TLS, and keeps event streams open and unbuffered: ingress-
// nginx buffers responses and cuts a read after 60 s by default.
func TestIngressForStreams(t *testing.T) {
	m := loadManifests(t)
	ing := loadIngress(t)
	a := ing.Annotations
	for _, k := range []string{"nginx.ingress.kubernetes.io/proxy-buffering", "nginx.ingress.kubernetes.io/proxy-request-buffering"} {
		if a[k] != "off" {
			t.Errorf("annotation %s = %q, want off: events must reach subscribers at once", k, a[k])
		}
	}
	heartbeat, err := time.ParseDuration(envOf(m.container(t))["SSE_HEARTBEAT"].Value)
	if err != nil {
		t.Fatalf("SSE_HEARTBEAT: %v", err)
	}
	for _, k := range []string{"nginx.ingress.kubernetes.io/proxy-read-timeout", "nginx.ingress.kubernetes.io/proxy-send-timeout"} {
		secs, err := strconv.Atoi(a[k])
		if err != nil || time.Duration(secs)*time.Second < time.Hour || time.Duration(secs)*time.Second <= 2*heartbeat {
			t.Errorf("annotation %s = %q, want at least 3600 (seconds): a stream waits for co-signers for a long time", k, a[k])
		}
	}
	if ing.Spec.IngressClassName == nil || *ing.Spec.IngressClassName != "nginx" {
		t.Errorf("ingressClassName %v, want nginx (the annotations are ingress-nginx's)", ing.Spec.IngressClassName)
	}
	if len(ing.Spec.TLS) == 0 || len(ing.Spec.Rules) == 0 {
		t.Fatalf("the Ingress needs TLS and a rule: %+v", ing.Spec)
	}
	for _, r := range ing.Spec.Rules {
		found := false
		for _, tls := range ing.Spec.TLS {
			for _, h := range tls.Hosts {
				found = found || h == r.Host
			}
		}
		if !found {
			t.Errorf("host %q has no TLS entry", r.Host)
		}
		if r.HTTP == nil || len(r.HTTP.Paths) == 0 {
			t.Errorf("host %q routes nothing", r.Host)
			continue
		}
		for _, p := range r.HTTP.Paths {
			svc := p.Backend.Service
			if svc == nil || svc.Name != m.service.Name || svc.Port.Name != "api" {
				t.Errorf("path %q routes to %+v, want the Service %q port api (never ops: /metrics stays inside)", p.Path, svc, m.service.Name)
			}
		}
	}
}
