package lab

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/internal/ctl"
)

// TestLoadFloorServesTheSignRoute: `load floor` answers a POST to the sign
// route, and only that route, with 200 and exactly --answer-bytes of JSON,
// refuses an empty body, and stops on SIGINT with status 0.
func TestLoadFloorServesTheSignRoute(t *testing.T) {
	tc := newTestCLI(nil, strings.NewReader(""))
	ll := start(t, tc, "load", "floor", "--answer-bytes", "700")

	fields := readyFields(t, ll.next())
	base := fields["relay"]
	if !strings.HasPrefix(base, "http://127.0.0.1:") || fields["answer-bytes"] != "700" {
		t.Fatalf("ready fields %v", fields)
	}
	post := func(path, body string) (int, string) {
		t.Helper()
		res, err := http.Post(base+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return res.StatusCode, string(b)
	}
	code, body := post("/api/plan/"+strings.Repeat("ab", 32)+"/sign", `{"xdr":"AAAA"}`)
	if code != http.StatusOK || len(body) != 700 || !strings.HasPrefix(body, `{"ok":true,`) || !strings.HasSuffix(body, "\"}\n") {
		t.Errorf("sign: %d, %d bytes %.40q…, want 200 and 700 bytes of JSON", code, len(body), body)
	}
	if code, body := post("/api/plan/x/sign", ""); code != http.StatusBadRequest || !strings.Contains(body, "BAD_BODY") {
		t.Errorf("empty body: %d %q, want 400 BAD_BODY", code, body)
	}
	if code, _ := post("/api/plan", `{}`); code != http.StatusNotFound {
		t.Errorf("publish route: %d, want 404 (the floor serves the sign route only)", code)
	}
	tc.interrupt()
	if code := ll.exit(); code != ctl.ExitOK {
		t.Errorf("exit %d after SIGINT, want 0", code)
	}
}

// TestLoadFloorRefusesBadFlags: the answer's size is bounded (below the
// JSON around the padding it was a panic) and the address is loopback
// only, as `load local`'s.
func TestLoadFloorRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"load", "floor", "--answer-bytes", "8"},
		{"load", "floor", "--answer-bytes", "20"}, // under the 21 bytes of JSON around the padding
		{"load", "floor", "--answer-bytes", "2000000"},
		{"load", "floor", "--listen", "0.0.0.0:0"},
	} {
		r := runCLI(t, nil, "", args...)
		if r.code != ctl.ExitUsage {
			t.Errorf("%v: exit %d (stderr %q), want %d", args, r.code, r.stderr, ctl.ExitUsage)
		}
	}
	// The least size taken is the JSON around the padding, with none.
	if _, err := floorHandler(minFloorAnswer); err != nil {
		t.Fatal(err)
	}
}
