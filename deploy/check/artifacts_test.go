package check

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ---- Containerfile ------------------------------------------------------------

// instruction is one Containerfile instruction with continuations joined.
type instruction struct {
	op, args string
	line     int
}

// parseContainerfile splits a Dockerfile-syntax file into instructions:
// comments and blank lines dropped, backslash continuations joined.
func parseContainerfile(src string) []instruction {
	var out []instruction
	var cur strings.Builder
	start := 0
	for i, raw := range strings.Split(src, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if cur.Len() == 0 {
			start = i + 1
		}
		if strings.HasSuffix(line, "\\") {
			cur.WriteString(strings.TrimSuffix(line, "\\") + " ")
			continue
		}
		cur.WriteString(line)
		op, args, _ := strings.Cut(cur.String(), " ")
		out = append(out, instruction{strings.ToUpper(op), strings.TrimSpace(args), start})
		cur.Reset()
	}
	return out
}

// stages groups instructions by FROM.
func stages(ins []instruction) [][]instruction {
	var out [][]instruction
	for _, in := range ins {
		if in.op == "FROM" {
			out = append(out, nil)
		}
		if len(out) > 0 {
			out[len(out)-1] = append(out[len(out)-1], in)
		}
	}
	return out
}

func TestContainerfile(t *testing.T) {
	ins := parseContainerfile(string(readFile(t, deployPath("Containerfile"))))
	st := stages(ins)
	if len(st) < 2 {
		t.Fatalf("want a multi-stage build, found %d stage(s)", len(st))
	}

	// Builder: the Go version of go.mod, a static, trimmed, stripped build.
	gomod := string(readFile(t, filepath.Join(repoRoot, "go.mod")))
	goLine := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindStringSubmatch(gomod)
	if goLine == nil {
		t.Fatal("no go directive in go.mod")
	}
	from := st[0][0].args
	if !regexp.MustCompile(`(^|/)golang:` + regexp.QuoteMeta(goLine[1]) + `(\b|$)`).MatchString(from) {
		t.Errorf("builder FROM %q: want golang:%s, the go.mod version", from, goLine[1])
	}
	var build string
	for _, s := range st[:len(st)-1] {
		for _, in := range s {
			if in.op == "RUN" && strings.Contains(in.args, "go build") {
				build = in.args
			}
		}
	}
	// The version reaches --version, the start-up line and build_info.
	for _, want := range []string{"CGO_ENABLED=0", "-trimpath", `-ldflags "-s -w `, "buildinfo.version=${VERSION}", "buildinfo.revision=${REVISION}", "./cmd/closerelay"} {
		if !strings.Contains(build, want) {
			t.Errorf("builder go build %q lacks %s", build, want)
		}
	}

	// Final stage: distroless static or scratch, non-root numeric user, no
	// shell (so no RUN), both ports, exec-form entrypoint to the binary.
	final := st[len(st)-1]
	base := strings.Fields(final[0].args)[0]
	if base != "scratch" && !strings.HasPrefix(base, "gcr.io/distroless/static-debian12:nonroot") {
		t.Errorf("final stage FROM %q: want distroless static nonroot or scratch", base)
	}
	var user, entry, labels string
	var exposed []string
	copied := map[string]bool{}
	for _, in := range final {
		switch in.op {
		case "RUN", "SHELL":
			t.Errorf("line %d: %s in the final stage (it has no shell)", in.line, in.op)
		case "USER":
			user = in.args
		case "LABEL":
			labels += " " + in.args
		case "EXPOSE":
			exposed = append(exposed, strings.Fields(in.args)...)
		case "ENTRYPOINT":
			entry = in.args
		case "COPY":
			f := strings.Fields(in.args)
			copied[f[len(f)-1]] = true
		}
	}
	for _, want := range []string{`org.opencontainers.image.version="${VERSION}"`, `org.opencontainers.image.revision="${REVISION}"`, "org.opencontainers.image.source="} {
		if !strings.Contains(labels, want) {
			t.Errorf("final stage LABELs lack %s (OCI labels)", want)
		}
	}
	uid, _, _ := strings.Cut(user, ":")
	if n, err := strconv.Atoi(uid); err != nil || n == 0 {
		t.Errorf("USER %q: want a numeric non-root uid (Kubernetes' runAsNonRoot checks numbers only)", user)
	}
	for _, p := range []string{"8080", "9090"} {
		if !slices.Contains(exposed, p) && !slices.Contains(exposed, p+"/tcp") {
			t.Errorf("EXPOSE lacks %s", p)
		}
	}
	var argv []string
	if err := json.Unmarshal([]byte(entry), &argv); err != nil || len(argv) == 0 {
		t.Fatalf("ENTRYPOINT %q: want exec (JSON array) form, so the binary is PID 1 and gets SIGTERM", entry)
	}
	if !copied[argv[0]] {
		t.Errorf("ENTRYPOINT %s is not a file COPY'd into the final stage (%v)", argv[0], copied)
	}

	// The Deployment runs the image as the same user.
	m := loadManifests(t)
	if ru := m.deploy.Spec.Template.Spec.SecurityContext.RunAsUser; ru == nil || strconv.FormatInt(*ru, 10) != uid {
		t.Errorf("deployment runAsUser %v differs from the image's USER %s", ru, uid)
	}
}

// ---- systemd ------------------------------------------------------------------

func TestSystemdUnit(t *testing.T) {
	u, err := parseUnit(readFile(t, deployPath("systemd", "closerelay.service")))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"DynamicUser":             "yes",
		"ProtectSystem":           "strict",
		"ProtectHome":             "yes",
		"NoNewPrivileges":         "yes",
		"PrivateTmp":              "yes",
		"PrivateDevices":          "yes",
		"ProtectKernelTunables":   "yes",
		"ProtectKernelModules":    "yes",
		"ProtectKernelLogs":       "yes",
		"ProtectControlGroups":    "yes",
		"RestrictAddressFamilies": "AF_INET AF_INET6 AF_UNIX",
		"RestrictNamespaces":      "yes",
		"LockPersonality":         "yes",
		"MemoryDenyWriteExecute":  "yes",
		"CapabilityBoundingSet":   "",
		"LimitNOFILE":             "65536",
		"EnvironmentFile":         "-/etc/closerelay/env",
		"ExecStart":               "/usr/local/bin/closerelay",
		"KillSignal":              "SIGTERM",
		"Restart":                 "on-failure",
	}
	for k, v := range want {
		got, ok := u.last("Service", k)
		if !ok || got != v {
			t.Errorf("[Service] %s=%q, want %q", k, got, v)
		}
	}
	if f := u["Service"]["SystemCallFilter"]; len(f) == 0 || f[0] != "@system-service" {
		t.Errorf("SystemCallFilter must start from @system-service, have %v", f)
	}

	// The drain (SHUTDOWN_TIMEOUT, the service default unless the env file
	// says otherwise) and the stop after it must end before systemd's SIGKILL.
	shutdown, err := time.ParseDuration(serviceDefaults(t)["SHUTDOWN_TIMEOUT"])
	if err != nil {
		t.Fatal(err)
	}
	stop, _ := u.last("Service", "TimeoutStopSec")
	d, err := parseSeconds(stop)
	if err != nil {
		t.Fatal(err)
	}
	// The process exits within SHUTDOWN_TIMEOUT + 5 s (CONTRACT section 9).
	if d <= shutdown+5*time.Second {
		t.Errorf("TimeoutStopSec %v must exceed SHUTDOWN_TIMEOUT %v + 5 s", d, shutdown)
	}

	// GOMEMLIMIT below MemoryMax, as in the Deployment.
	if mm, ok := u.last("Service", "MemoryMax"); ok {
		max, err := parseByteSize(mm)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range u["Service"]["Environment"] {
			if v, ok := strings.CutPrefix(e, "GOMEMLIMIT="); ok {
				if n, err := parseByteSize(v); err != nil || n >= max {
					t.Errorf("GOMEMLIMIT=%s must be below MemoryMax=%s", v, mm)
				}
			}
		}
	}
}

// TestSystemdEnvExample keeps the example environment file in step with the
// variables the service reads.
func TestSystemdEnvExample(t *testing.T) {
	src := string(readFile(t, deployPath("systemd", "closerelay.env.example")))
	for name, def := range serviceDefaults(t) {
		line := "#" + name + "=" + def
		if !strings.Contains(src, "\n"+line+"\n") {
			t.Errorf("closerelay.env.example lacks the line %q", line)
		}
	}
}
