package client_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/client"
)

// TestBumpWire: Bump posts {"xdr"} to /api/plan/{id}/bump and reads
// {"ok","id","hash"} (docs/API.md); a refusal is an *Error with its code,
// an answer for another plan or without a hash is ErrUnexpectedResponse.
// The relay's route is not built yet: a loopback server answers the
// contract's bodies.
func TestBumpWire(t *testing.T) {
	id := strings.Repeat("ab", 32)
	bumpHash := strings.Repeat("cd", 32)
	var answer func(w http.ResponseWriter)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		if r.Method != http.MethodPost || r.URL.Path != "/api/plan/"+id+"/bump" || json.NewDecoder(r.Body).Decode(&body) != nil ||
			len(body) != 1 || body["xdr"] != "AAAA" {
			t.Errorf("request %s %s %v", r.Method, r.URL.Path, body)
		}
		w.Header().Set("Content-Type", "application/json")
		answer(w)
	}))
	defer srv.Close()
	c, err := client.New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	answer = func(w http.ResponseWriter) {
		_, _ = w.Write([]byte(`{"ok":true,"id":"` + id + `","hash":"` + bumpHash + `"}`))
	}
	b, err := c.Bump(t.Context(), id, "AAAA")
	if err != nil || b.ID != id || b.Hash != bumpHash {
		t.Fatalf("Bump = %+v, %v", b, err)
	}
	answer = func(w http.ResponseWriter) {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"ok":false,"code":"BUMP_MISMATCH","reason":"the fee-bump wraps another transaction"}`))
	}
	var cerr *client.Error
	if _, err := c.Bump(t.Context(), id, "AAAA"); !errors.As(err, &cerr) || cerr.Status != 400 || cerr.Code != "BUMP_MISMATCH" {
		t.Fatalf("refusal: %v", err)
	}
	for _, body := range []string{
		`{"ok":true,"id":"` + strings.Repeat("ef", 32) + `","hash":"` + bumpHash + `"}`,
		`{"ok":true,"id":"` + id + `"}`,
		`{"ok":true,"id":"` + id + `","hash":"` + strings.ToUpper(bumpHash) + `"}`,
	} {
		answer = func(w http.ResponseWriter) { _, _ = w.Write([]byte(body)) }
		if _, err := c.Bump(t.Context(), id, "AAAA"); !errors.Is(err, client.ErrUnexpectedResponse) {
			t.Errorf("%s: %v, want ErrUnexpectedResponse", body, err)
		}
	}
}
