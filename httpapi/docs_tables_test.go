package httpapi_test

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/httpapi/openapi"
)

// The route tables people read, docs/API.md section 1 and the routes of
// docs/javascript.md, held to the router and to the OpenAPI document (itself
// held to the router by TestOpenAPIRoutesDocumented and to every answer by
// checkAnswer): a route served and not in a table, a table row for a route
// not served, a query parameter or an answer's field a row does not name,
// fails here.

// routeTable is the rows of the first Markdown table after heading in the
// file rel, each row's text by the route paths its first column names.
func routeTable(t *testing.T, rel, heading string) map[string][]string {
	t.Helper()
	b, err := os.ReadFile("../" + rel)
	if err != nil {
		t.Fatal(err)
	}
	_, s, ok := strings.Cut(string(b), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("%s has no heading %q", rel, heading)
	}
	rows := map[string][]string{}
	inTable := false
	for line := range strings.SplitSeq(s, "\n") {
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		first, _, _ := strings.Cut(strings.TrimPrefix(line, "|"), "|")
		for _, m := range regexp.MustCompile("`(?:[A-Z]+ )?(/api[^`?\\[ ]*)").FindAllStringSubmatch(first, -1) {
			path := regexp.MustCompile(`:([a-z]+)`).ReplaceAllString(m[1], "{$1}")
			rows[path] = append(rows[path], line)
		}
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no route table under %q", rel, heading)
	}
	return rows
}

// openAPIOperation is the part of an operation this test reads.
type openAPIOperation struct {
	Parameters []struct {
		Name string `json:"name"`
		In   string `json:"in"`
	} `json:"parameters"`
	Responses map[string]struct {
		Content map[string]struct {
			Schema struct {
				Ref string `json:"$ref"`
			} `json:"schema"`
		} `json:"content"`
	} `json:"responses"`
}

func TestRouteTablesMatchTheRouter(t *testing.T) {
	var doc struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openapi.Document, &doc); err != nil {
		t.Fatal(err)
	}
	r := startRelay(t, httpapi.Options{}, 0, nil)
	var served []httpapi.Route
	for _, rt := range r.API.Routes() {
		if strings.HasPrefix(rt.Path, "/api/") {
			served = append(served, rt)
		}
	}
	if len(served) < 10 {
		t.Fatalf("the router serves %d API routes: Routes() lost some", len(served))
	}
	word := func(row, w string) bool {
		return regexp.MustCompile(`(^|[^A-Za-z_])` + regexp.QuoteMeta(w) + `($|[^A-Za-z_])`).MatchString(row)
	}
	for _, table := range []struct{ file, heading string }{
		{"docs/API.md", "## 1. Routes"},
		{"docs/javascript.md", "## Routes"},
	} {
		rows := routeTable(t, table.file, table.heading)
		for path := range rows {
			if !slices.ContainsFunc(served, func(rt httpapi.Route) bool { return rt.Path == path }) {
				t.Errorf("%s: a row for %s, which the router does not serve", table.file, path)
			}
		}
		for _, rt := range served {
			text := strings.Join(rows[rt.Path], "\n")
			if text == "" {
				t.Errorf("%s: no row for %s %s", table.file, rt.Method, rt.Path)
				continue
			}
			if !word(text, rt.Method) {
				t.Errorf("%s: the rows of %s do not name its method %s", table.file, rt.Path, rt.Method)
			}
			raw, ok := doc.Paths[rt.Path][strings.ToLower(rt.Method)]
			if !ok {
				continue // TestOpenAPIRoutesDocumented says so
			}
			var op openAPIOperation
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatalf("%s %s in the OpenAPI document: %v", rt.Method, rt.Path, err)
			}
			for _, p := range op.Parameters {
				if p.In == "query" && !strings.Contains(text, p.Name+"=") {
					t.Errorf("%s: the rows of %s %s do not name its query parameter %s=", table.file, rt.Method, rt.Path, p.Name)
				}
			}
			if rt.Method != "GET" && rt.Method != "POST" {
				continue
			}
			for _, c := range op.Responses["200"].Content {
				name := strings.TrimPrefix(c.Schema.Ref, "#/components/schemas/")
				for field := range doc.Components.Schemas[name].Properties {
					if !word(text, field) {
						t.Errorf("%s: the rows of %s %s do not name the field %q of its answer (%s)", table.file, rt.Method, rt.Path, field, name)
					}
				}
			}
		}
	}
}
