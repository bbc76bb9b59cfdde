package check

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// repoRoot is the closerelay checkout; this module lives in deploy/check.
const repoRoot = "../.."

func deployPath(parts ...string) string {
	return filepath.Join(append([]string{repoRoot, "deploy"}, parts...)...)
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decodeStrict decodes one YAML document into out, refusing unknown or
// duplicate fields (see unmarshalStrict).
func decodeStrict(t *testing.T, path string, out any) {
	t.Helper()
	if err := decodeStrictErr(path, out); err != nil {
		t.Fatal(err)
	}
}

func decodeStrictErr(path string, out any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if docs := splitYAMLDocs(b); len(docs) != 1 {
		return fmt.Errorf("%s: want exactly one YAML document, found %d", path, len(docs))
	}
	if err := unmarshalStrict(b, out); err != nil {
		return fmt.Errorf("%s: strict decode: %w", path, err)
	}
	return nil
}

// unmarshalStrict decodes YAML into out as the API server's strict field
// validation does: converted to JSON (duplicate keys refused), then decoded
// with object keys matched case-sensitively and unknown fields refused.
// encoding/json alone, which sigs.k8s.io/yaml's UnmarshalStrict uses, would
// take "maxsize" for "maxSize", a key Helm and the API server both ignore.
func unmarshalStrict(b []byte, out any) error {
	j, err := yaml.YAMLToJSONStrict(b)
	if err != nil {
		return err
	}
	strict, err := sigsjson.UnmarshalStrict(j, out)
	if err != nil {
		return err
	}
	return errors.Join(strict...)
}

// splitYAMLDocs returns the non-empty documents of a YAML stream.
func splitYAMLDocs(b []byte) [][]byte {
	var docs [][]byte
	for _, d := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(b), -1) {
		content := false
		for _, line := range strings.Split(d, "\n") {
			l := strings.TrimSpace(line)
			if l != "" && !strings.HasPrefix(l, "#") {
				content = true
				break
			}
		}
		if content {
			docs = append(docs, []byte(d))
		}
	}
	return docs
}

// serviceDefaults reads the defaults the service applies, from
// internal/server/config.go: str("NAME", "default"), dur("NAME", "default")
// and positive("NAME", "default"), bounded("NAME", actor.DefaultX) (the
// default is package actor's constant, see actorDuration), plus names read
// with getenv("NAME") directly (default empty).
func serviceDefaults(t *testing.T) map[string]string {
	t.Helper()
	src := readFile(t, filepath.Join(repoRoot, "internal", "server", "config.go"))
	out := map[string]string{}
	for _, m := range regexp.MustCompile(`\b(?:str|dur|positive)\("([A-Z][A-Z0-9_]*)",\s*"([^"]*)"\)`).FindAllSubmatch(src, -1) {
		out[string(m[1])] = string(m[2])
	}
	for _, m := range regexp.MustCompile(`\bbounded\("([A-Z][A-Z0-9_]*)",\s*actor\.(\w+)\)`).FindAllSubmatch(src, -1) {
		out[string(m[1])] = actorDuration(t, string(m[2]))
	}
	for _, m := range regexp.MustCompile(`\bgetenv\("([A-Z][A-Z0-9_]*)"\)`).FindAllSubmatch(src, -1) {
		if _, ok := out[string(m[1])]; !ok {
			out[string(m[1])] = ""
		}
	}
	if len(out) < 10 {
		t.Fatalf("found only %d variables in internal/server/config.go: the pattern no longer matches the source", len(out))
	}
	return out
}

// actorDuration is the value of package actor's duration constant name,
// declared as "name = N * time.Unit" or "name = time.Unit", written the way
// an operator writes it (6h, 90m, 1h30m). This module does not import
// package actor (its dependencies would join this go.mod), so it reads the
// source.
func actorDuration(t *testing.T, name string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repoRoot, "actor", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\s*=\s*(?:(\d+)\s*\*\s*)?time\.(Hour|Minute|Second)\b`)
	units := map[string]time.Duration{"Hour": time.Hour, "Minute": time.Minute, "Second": time.Second}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		m := decl.FindSubmatch(readFile(t, f))
		if m == nil {
			continue
		}
		d := units[string(m[2])]
		if len(m[1]) > 0 {
			var n int64
			if _, err := fmt.Sscanf(string(m[1]), "%d", &n); err != nil {
				t.Fatalf("actor.%s: %v", name, err)
			}
			d *= time.Duration(n)
		}
		s := d.String() // 6h0m0s
		if strings.HasSuffix(s, "m0s") {
			s = strings.TrimSuffix(s, "0s")
		}
		if strings.HasSuffix(s, "h0m") {
			s = strings.TrimSuffix(s, "0m")
		}
		return s
	}
	t.Fatalf("actor.%s: no declaration N * time.Unit in actor/*.go; teach actorDuration its form", name)
	return ""
}

// contractVariables are CONTRACT.md section 1's variables and section 9's.
// The service's config.go must read every one (checked below), and may read
// more.
var contractVariables = []string{
	"LISTEN_ADDR", "OPS_ADDR", "HORIZON_URL_MAINNET", "HORIZON_URL_TESTNET",
	"HORIZON_URL_FUTURENET", "HORIZON_TIMEOUT", "MEDIATOR_SECRET",
	"TRUSTED_PROXY_HOPS", "RATE_LIMITS", "SSE_HEARTBEAT", "CORS_ALLOW_ORIGINS",
	"LOG_LEVEL", "LOG_FORMAT", "SHUTDOWN_TIMEOUT",
	"PLANS_PER_ACCOUNT", "HORIZON_CONCURRENCY", "PREFLIGHT_MAX_ACCOUNTS", "PREFLIGHT_MAX_AGE",
}

func TestServiceReadsContractVariables(t *testing.T) {
	defaults := serviceDefaults(t)
	for _, v := range contractVariables {
		if _, ok := defaults[v]; !ok {
			t.Errorf("internal/server/config.go does not read %s (CONTRACT sections 1 and 9)", v)
		}
	}
}

// parseByteSize reads a Go GOMEMLIMIT value or a systemd size (K, M, G are
// powers of 1024 in systemd; KiB/MiB/GiB in Go).
func parseByteSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"B", 1}}
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			var n int64
			if _, err := fmt.Sscanf(strings.TrimSuffix(s, u.suffix), "%d", &n); err != nil {
				return 0, fmt.Errorf("size %q: %w", s, err)
			}
			return n * u.mult, nil
		}
	}
	var n int64
	if _, err := fmt.Sscanf(s, "%d", &n); err != nil {
		return 0, fmt.Errorf("size %q: %w", s, err)
	}
	return n, nil
}

// parseSeconds reads a systemd time span of the simple forms used here
// ("20", "20s", "2min").
func parseSeconds(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if d, err := time.ParseDuration(strings.Replace(s, "min", "m", 1)); err == nil {
		return d, nil
	}
	var n int64
	if _, err := fmt.Sscanf(s, "%d", &n); err != nil || fmt.Sprint(n) != s {
		return 0, fmt.Errorf("time span %q not understood", s)
	}
	return time.Duration(n) * time.Second, nil
}

// unitFile is a parsed systemd unit: section -> key -> values in order.
type unitFile map[string]map[string][]string

func parseUnit(b []byte) (unitFile, error) {
	u := unitFile{}
	section := ""
	for i, raw := range strings.Split(string(bytes.ReplaceAll(b, []byte("\\\n"), nil)), "\n") {
		line := strings.TrimSpace(raw)
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = line[1 : len(line)-1]
			if u[section] == nil {
				u[section] = map[string][]string{}
			}
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok || section == "" {
				return nil, fmt.Errorf("line %d: %q is not key=value inside a section", i+1, line)
			}
			k = strings.TrimSpace(k)
			u[section][k] = append(u[section][k], strings.TrimSpace(v))
		}
	}
	return u, nil
}

// last is the effective value of a key set once or more (the last wins).
func (u unitFile) last(section, key string) (string, bool) {
	v := u[section][key]
	if len(v) == 0 {
		return "", false
	}
	return v[len(v)-1], true
}
