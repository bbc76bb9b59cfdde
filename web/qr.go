package web

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"github.com/boombuler/barcode/qr"
)

// quietZone is the light margin around a QR code, in modules (ISO/IEC 18004
// asks for 4).
const quietZone = 4

// qrMatrix encodes content as a QR code in byte mode and returns its modules,
// row by row: m[y][x] is true for a dark module. It takes error correction
// level M (15 %), or L (7 %) when the content is too long for M; an error
// means content does not fit a version-40 code even at L.
func qrMatrix(content string) ([][]bool, error) {
	code, err := qr.Encode(content, qr.M, qr.Unicode)
	if err != nil {
		code, err = qr.Encode(content, qr.L, qr.Unicode)
	}
	if err != nil {
		return nil, fmt.Errorf("qr: %d bytes do not fit a QR code: %w", len(content), err)
	}
	b := code.Bounds()
	m := make([][]bool, b.Dy())
	for y := range m {
		m[y] = make([]bool, b.Dx())
		for x := range m[y] {
			r, _, _, _ := code.At(b.Min.X+x, b.Min.Y+y).RGBA()
			m[y][x] = r < 0x8000
		}
	}
	return m, nil
}

// qrSVG renders content as an inline SVG element: a white square with a
// quiet zone and one black path, a rectangle per horizontal run of dark
// modules ("M{x} {y}h{n}v1h-{n}z", in module units). It carries no style
// attribute or script, so Content-Security-Policy default-src 'self' allows
// it, and it scales with CSS (class "qr"). label is its accessible name.
func qrSVG(content, label string) (template.HTML, error) {
	m, err := qrMatrix(content)
	if err != nil {
		return "", err
	}
	size := len(m) + 2*quietZone
	var b strings.Builder
	b.Grow(len(m) * len(m) * 4)
	s := strconv.Itoa(size)
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" class="qr" viewBox="0 0 ` + s + ` ` + s +
		`" shape-rendering="crispEdges" role="img" aria-label="` + template.HTMLEscapeString(label) + `">`)
	b.WriteString(`<rect width="` + s + `" height="` + s + `" fill="#fff"/><path fill="#000" d="`)
	for y, row := range m {
		for x := 0; x < len(row); {
			if !row[x] {
				x++
				continue
			}
			start := x
			for x < len(row) && row[x] {
				x++
			}
			n := strconv.Itoa(x - start)
			b.WriteString("M" + strconv.Itoa(start+quietZone) + " " + strconv.Itoa(y+quietZone) + "h" + n + "v1h-" + n + "z")
		}
	}
	b.WriteString(`"/></svg>`)
	return template.HTML(b.String()), nil
}
