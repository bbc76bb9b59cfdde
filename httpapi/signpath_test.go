package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/actor"
	"github.com/labstack/echo/v4"
)

// TestPlainStringAgrees: stringField's fast path gives exactly what
// json.Unmarshal gives, and leaves to it every string it cannot take as is.
func TestPlainStringAgrees(t *testing.T) {
	for _, raw := range []string{
		`"AAAAAgAAAAB+/="`, `""`, `"a\"b"`, `"a\\b"`, `"\u0041"`, `"é"`, "\"\x7f\"", `"tab	"`, `"a/b"`, `12`, `"unterminated`,
	} {
		checkPlainString(t, []byte(raw))
	}
}

func FuzzPlainString(f *testing.F) {
	for _, s := range []string{`"AAAA"`, `"a\"b"`, `"é"`, `""`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { checkPlainString(t, raw) })
}

func checkPlainString(t *testing.T, raw []byte) {
	t.Helper()
	var want string
	if err := json.Unmarshal(raw, &want); err != nil {
		return // never a field value: the body's decoding refused it
	}
	if got, ok := plainString(raw); ok && got != want {
		t.Errorf("plainString(%q) = %q, json.Unmarshal %q", raw, got, want)
	}
	if got, ok := stringField(map[string]json.RawMessage{"xdr": raw}, "xdr"); !ok || got != want {
		t.Errorf("stringField(%q) = %q, %v; want %q", raw, got, ok, want)
	}
}

// TestSignAnswerAsEchoWritesIt: the sign answer rendered once per version is
// byte for byte what c.JSON wrote for it before.
func TestSignAnswerAsEchoWritesIt(t *testing.T) {
	st := actor.State{ID: "ab", Network: "testnet", XDR: "AAAA+/==", Signers: []string{"GA", "GB"}, Weight: 2, Threshold: 3}
	e := echo.New()
	rec := httptest.NewRecorder()
	c := e.NewContext(httptest.NewRequest(http.MethodPost, "/", nil), rec)
	if err := c.JSON(http.StatusOK, signOKOf(st)); err != nil {
		t.Fatal(err)
	}
	if got := string(appendSignOK(nil, st)); got != rec.Body.String() {
		t.Fatalf("rendered %q, c.JSON wrote %q", got, rec.Body.String())
	}
	st.Signers = nil
	if got := string(appendSignOK(nil, st)); !strings.Contains(got, `"signers":[]`) {
		t.Fatalf("no signers rendered as %q, want an empty list", got)
	}
}

// TestOnlyXDRAgrees: the sign body's fast path takes only what the full
// decoding takes, and gives the same xdr.
func TestOnlyXDRAgrees(t *testing.T) {
	for _, body := range []string{
		`{"xdr":"AAAA+/=="}`, `{"xdr":""}`, `{"xdr":"a\"b"}`, `{"xdr":"AAAA","xdr":"BBBB"}`, `{ "xdr":"AAAA"}`,
		`{"xdr":"AAAA"} `, `{"XDR":"AAAA"}`, `{"xdr":12}`, `{"xdr":"AA"}}`, `{"xdr":"é"}`, `{"xdr":"A"B"}`, `[]`,
	} {
		checkOnlyXDR(t, []byte(body))
	}
}

func FuzzOnlyXDR(f *testing.F) {
	for _, s := range []string{`{"xdr":"AAAA"}`, `{"xdr":"a\"b"}`, `{"xdr":"A"B"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { checkOnlyXDR(t, raw) })
}

func checkOnlyXDR(t *testing.T, raw []byte) {
	t.Helper()
	got, ok := onlyXDR(raw)
	if !ok {
		return
	}
	fields, isObject := objectOf(raw)
	want, isString := stringField(fields, "xdr")
	if !isObject || !isString || len(fields) != 1 || got != want {
		t.Errorf("onlyXDR(%q) = %q; the full decoding: object %v, string %v, %d fields, %q", raw, got, isObject, isString, len(fields), want)
	}
}

// BenchmarkRenderSignOK is the sign answer of a 20-signature version, the
// one rendering each new signer costs: as encoding/json writes it, and as
// wire.Signed.AppendJSON does (appendSignOK).
func BenchmarkRenderSignOK(b *testing.B) {
	st := actor.State{ID: strings.Repeat("ab", 32), Network: "testnet", XDR: strings.Repeat("AAAAAgAAAAB+/=", 240), Weight: 20, Threshold: 20, Ready: true}
	for range 20 {
		st.Signers = append(st.Signers, "G"+strings.Repeat("A", 55))
	}
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			b, _ := json.Marshal(signOKOf(st))
			_ = append(b, '\n')
		}
	})
	b.Run("append", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			appendSignOK(nil, st)
		}
	})
	// A version's first answer: into a buffer used again.
	b.Run("append-pooled", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 4096)
		for b.Loop() {
			buf = appendSignOK(buf[:0], st)
		}
	})
}
