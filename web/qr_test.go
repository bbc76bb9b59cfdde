package web

import (
	"context"
	"encoding/xml"
	"errors"
	"io"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/boombuler/barcode/qr"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/sep7"
)

const sampleURI = "web+stellar:tx?xdr=AAAAAgAAAADfXoYb%2BX3mQ0k%2F8l3vY2g%3D&network_passphrase=Test%20SDF%20Network%20%3B%20September%202015&msg=closerelay%20plan&callback=url%3Ahttps%3A%2F%2Frelay.example.org%2Fapi%2Fplan%2Fab%2Fsign"

// readSVG checks that svg is well-formed XML with the expected shape and
// returns the module matrix its path draws (quiet zone stripped) after
// checking that the quiet zone is light.
func readSVG(t *testing.T, svg string) [][]bool {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	d.Strict = true
	var (
		size   int
		pathD  string
		depth  int
		rootOK bool
	)
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			depth++
			attr := map[string]string{}
			for _, a := range tok.Attr {
				attr[a.Name.Local] = a.Value
			}
			switch tok.Name.Local {
			case "svg":
				if depth != 1 || tok.Name.Space != "http://www.w3.org/2000/svg" {
					t.Fatalf("svg element at depth %d in %q", depth, tok.Name.Space)
				}
				f := strings.Fields(attr["viewBox"])
				if len(f) != 4 || f[0] != "0" || f[1] != "0" || f[2] != f[3] {
					t.Fatalf("viewBox %q", attr["viewBox"])
				}
				size, _ = strconv.Atoi(f[2])
				if attr["role"] != "img" || attr["aria-label"] == "" {
					t.Errorf("svg without an accessible name: %v", attr)
				}
				if _, ok := attr["style"]; ok {
					t.Error("a style attribute")
				}
				rootOK = true
			case "rect":
				if attr["fill"] != "#fff" || attr["width"] != strconv.Itoa(size) || attr["height"] != strconv.Itoa(size) {
					t.Errorf("background %v", attr)
				}
			case "path":
				if attr["fill"] != "#000" {
					t.Errorf("path fill %q", attr["fill"])
				}
				pathD = attr["d"]
			default:
				t.Errorf("unexpected element %s", tok.Name.Local)
			}
		case xml.EndElement:
			depth--
		}
	}
	if !rootOK || size <= 2*quietZone {
		t.Fatalf("no svg root or size %d", size)
	}
	runs := regexp.MustCompile(`M(\d+) (\d+)h(\d+)v1h-(\d+)z`)
	if rest := runs.ReplaceAllString(pathD, ""); rest != "" {
		t.Fatalf("path has other commands: %.80q", rest)
	}
	full := make([][]bool, size)
	for y := range full {
		full[y] = make([]bool, size)
	}
	for _, m := range runs.FindAllStringSubmatch(pathD, -1) {
		x, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		n, _ := strconv.Atoi(m[3])
		if m[4] != m[3] || n < 1 || x+n > size || y >= size {
			t.Fatalf("bad run %q", m[0])
		}
		for i := x; i < x+n; i++ {
			if full[y][i] {
				t.Fatalf("overlapping runs at %d,%d", i, y)
			}
			full[y][i] = true
		}
	}
	n := size - 2*quietZone
	out := make([][]bool, n)
	for y := range full {
		for x := range full[y] {
			inside := y >= quietZone && y < quietZone+n && x >= quietZone && x < quietZone+n
			if !inside && full[y][x] {
				t.Fatalf("dark module in the quiet zone at %d,%d", x, y)
			}
		}
	}
	for y := range out {
		out[y] = full[y+quietZone][quietZone : quietZone+n]
	}
	return out
}

// libraryMatrix is the library's own bitmap, sampled through image.Image.
func libraryMatrix(t *testing.T, content string, level qr.ErrorCorrectionLevel) [][]bool {
	t.Helper()
	code, err := qr.Encode(content, level, qr.Unicode)
	if err != nil {
		t.Fatal(err)
	}
	b := code.Bounds()
	m := make([][]bool, b.Dy())
	for y := range m {
		m[y] = make([]bool, b.Dx())
		for x := range m[y] {
			r, g, bl, _ := code.At(b.Min.X+x, b.Min.Y+y).RGBA()
			m[y][x] = r+g+bl < 3*0x8000
		}
	}
	return m
}

func equal(a, b [][]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for y := range a {
		if len(a[y]) != len(b[y]) {
			return false
		}
		for x := range a[y] {
			if a[y][x] != b[y][x] {
				return false
			}
		}
	}
	return true
}

// checkFunctionPatterns reads the structure every QR reader relies on from a
// matrix (m[y][x]): the three finder patterns, the timing patterns, both
// copies of the BCH-protected format information (which tell the error
// correction level and mask, and would not read back from a mirrored or
// transposed code), and for version 7 and up the version information. It
// returns the error correction level's format bits (M = 0, L = 1).
func checkFunctionPatterns(t *testing.T, m [][]bool) int {
	t.Helper()
	size := len(m)
	if size < 21 || (size-17)%4 != 0 {
		t.Fatalf("size %d is no QR version", size)
	}
	version := (size - 17) / 4
	at := func(x, y int) bool { return m[y][x] }
	finder := func(x0, y0 int) {
		for dy := 0; dy < 7; dy++ {
			for dx := 0; dx < 7; dx++ {
				ring := max(abs(dx-3), abs(dy-3))
				if want := ring != 2; at(x0+dx, y0+dy) != want {
					t.Fatalf("finder pattern at %d,%d wrong at %d,%d", x0, y0, dx, dy)
				}
			}
		}
	}
	finder(0, 0)
	finder(size-7, 0)
	finder(0, size-7)
	for i := 8; i < size-8; i++ {
		if at(i, 6) != (i%2 == 0) || at(6, i) != (i%2 == 0) {
			t.Fatalf("timing pattern wrong at %d", i)
		}
	}
	var copy1, copy2 int
	bit := func(v bool, i int) int {
		if v {
			return 1 << i
		}
		return 0
	}
	for i := 0; i <= 5; i++ {
		copy1 |= bit(at(8, i), i)
	}
	copy1 |= bit(at(8, 7), 6) | bit(at(8, 8), 7) | bit(at(7, 8), 8)
	for i := 9; i < 15; i++ {
		copy1 |= bit(at(14-i, 8), i)
	}
	for i := 0; i < 8; i++ {
		copy2 |= bit(at(size-1-i, 8), i)
	}
	for i := 8; i < 15; i++ {
		copy2 |= bit(at(8, size-15+i), i)
	}
	if !at(8, size-8) {
		t.Fatal("the dark module is light")
	}
	if copy1 != copy2 {
		t.Fatalf("format copies differ: %015b %015b", copy1, copy2)
	}
	data := (copy1 ^ 0x5412) >> 10
	rem := data
	for i := 0; i < 10; i++ {
		rem = rem<<1 ^ (rem>>9)*0x537
	}
	if want := (data<<10 | rem) ^ 0x5412; want != copy1 {
		t.Fatalf("format information %015b fails its BCH check (want %015b)", copy1, want)
	}
	if version >= 7 {
		var v1, v2 int
		for i := 0; i < 18; i++ {
			a, b := size-11+i%3, i/3
			v1 |= bit(at(a, b), i)
			v2 |= bit(at(b, a), i)
		}
		rem := version
		for i := 0; i < 12; i++ {
			rem = rem<<1 ^ (rem>>11)*0x1F25
		}
		if want := version<<12 | rem; v1 != want || v2 != want {
			t.Fatalf("version information %018b/%018b, want %018b for version %d", v1, v2, want, version)
		}
	}
	return data >> 3
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestQRSVGDecodesBack(t *testing.T) {
	long := sampleURI + strings.Repeat("A", 1900) // a version > 7 code, still at level M
	longer := sampleURI + strings.Repeat("B", 2500)
	for _, c := range []struct {
		name    string
		content string
		level   qr.ErrorCorrectionLevel
		bits    int
	}{
		{"short", "web+stellar:tx?xdr=AAAA&msg=hi", qr.M, 0},
		{"sample", sampleURI, qr.M, 0},
		{"long", long, qr.M, 0},
		{"too long for M", longer, qr.L, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			svg, err := qrSVG(c.content, `QR code of "the" <link>`)
			if err != nil {
				t.Fatal(err)
			}
			got := readSVG(t, string(svg))
			if !equal(got, libraryMatrix(t, c.content, c.level)) {
				t.Fatal("the SVG's modules differ from the library's bitmap")
			}
			m, err := qrMatrix(c.content)
			if err != nil || !equal(got, m) {
				t.Fatalf("qrMatrix differs: %v", err)
			}
			if bits := checkFunctionPatterns(t, got); bits != c.bits {
				t.Fatalf("error correction bits %d, want %d", bits, c.bits)
			}
		})
	}
}

func TestQRTooLong(t *testing.T) {
	if _, err := qrSVG(strings.Repeat("x", 2954), "x"); err == nil {
		t.Fatal("2,954 bytes encoded")
	}
	if _, err := qrSVG(strings.Repeat("x", 2953), "x"); err != nil {
		t.Fatalf("2,953 bytes (version 40-L): %v", err)
	}
}

type onePlan PageData

func (p onePlan) Page(_ context.Context, id string) (PageData, error) {
	if id != p.ID {
		return PageData{}, ErrNotFound
	}
	return PageData(p), nil
}

// The page's inline SVG encodes exactly the page's SEP-7 link.
func TestPageQRMatchesLink(t *testing.T) {
	d := PageData{ID: strings.Repeat("c", 64), Network: ledger.Futurenet, XDR: "AAAAAgAAAAB+/=", Threshold: 2, Weight: 1}
	h := New(onePlan(d), Config{PublicURL: "http://127.0.0.1:8080/"})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/plan/"+d.ID, nil))
	if rec.Code != 200 {
		t.Fatalf("status %d", rec.Code)
	}
	body := rec.Body.String()
	start := strings.Index(body, "<svg xmlns=")
	if start < 0 {
		t.Fatal("no inline QR SVG")
	}
	end := strings.Index(body[start:], "</svg>")
	if end < 0 {
		t.Fatal("the QR SVG does not end")
	}
	got := readSVG(t, body[start:start+end+len("</svg>")])
	link := sep7.ForPlan(ledger.Futurenet, d.ID, d.XDR, "http://127.0.0.1:8080/")
	if !equal(got, libraryMatrix(t, link, qr.M)) {
		t.Fatal("the page's QR code is not the link's")
	}
	checkFunctionPatterns(t, got)
}

// A link too long for any QR code leaves the page without one, and says so.
func TestPageWithoutQR(t *testing.T) {
	d := PageData{ID: strings.Repeat("d", 64), Network: ledger.Testnet, XDR: strings.Repeat("A", 3000)}
	h := New(onePlan(d), Config{})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/plan/"+d.ID, nil))
	body := rec.Body.String()
	if rec.Code != 200 || strings.Contains(body, "<svg xmlns=") || !strings.Contains(body, "too long for a QR code") {
		t.Fatalf("status %d; body:\n%s", rec.Code, body)
	}
	if !strings.Contains(body, "The transaction could not be decoded") {
		t.Error("an undecodable envelope is not reported")
	}
}
