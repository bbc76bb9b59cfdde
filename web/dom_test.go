package web_test

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"
)

// node is a minimal DOM for the tests: the pages are parsed with
// encoding/xml in its lenient HTML mode (void elements auto-closed, HTML
// entities, attributes without values).
type node struct {
	tag      string
	attr     map[string]string
	children []*node
	text     string // character data directly inside, for text nodes
	parent   *node
}

func parseHTML(t *testing.T, body string) *node {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(body))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	root := &node{tag: "#root", attr: map[string]string{}}
	cur := root
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("page does not parse: %v\n%s", err, body)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &node{tag: strings.ToLower(tok.Name.Local), attr: map[string]string{}, parent: cur}
			for _, a := range tok.Attr {
				name := a.Name.Local
				if a.Name.Space != "" && a.Name.Space != "xmlns" {
					name = a.Name.Space + ":" + name
				}
				n.attr[strings.ToLower(name)] = a.Value
			}
			cur.children = append(cur.children, n)
			cur = n
		case xml.EndElement:
			if cur.parent != nil {
				cur = cur.parent
			}
		case xml.CharData:
			cur.children = append(cur.children, &node{tag: "#text", text: string(tok), parent: cur})
		}
	}
	return root
}

func (n *node) walk(f func(*node)) {
	f(n)
	for _, c := range n.children {
		c.walk(f)
	}
}

func (n *node) all(pred func(*node) bool) []*node {
	var out []*node
	n.walk(func(m *node) {
		if m.tag != "#text" && pred(m) {
			out = append(out, m)
		}
	})
	return out
}

func (n *node) byTag(tag string) []*node {
	return n.all(func(m *node) bool { return m.tag == tag })
}

func (n *node) byID(t *testing.T, id string) *node {
	t.Helper()
	found := n.all(func(m *node) bool { return m.attr["id"] == id })
	if len(found) != 1 {
		t.Fatalf("%d elements with id %q", len(found), id)
	}
	return found[0]
}

func (n *node) has(attr string) bool {
	_, ok := n.attr[attr]
	return ok
}

// textContent is the element's text, whitespace collapsed.
func (n *node) textContent() string {
	var b strings.Builder
	n.walk(func(m *node) {
		if m.tag == "#text" {
			b.WriteString(m.text)
		}
	})
	return strings.Join(strings.Fields(b.String()), " ")
}
