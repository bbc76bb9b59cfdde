package web

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
)

// The page's scripts are written in TypeScript (ts/*.ts) and built by
// ts/build.mjs with the esbuild pinned in ts/package-lock.json; the build is
// committed under assets/ so that `go build` needs no JavaScript tools. This
// test builds the sources anew and fails when the committed files are not
// that build (a source changed without `npm run build`, or a build edited by
// hand). It skips only without node and npm; `make test` runs it through
// `make test-web`, after `npm ci` in web/ts.
func TestAssetsAreTheBuild(t *testing.T) {
	node, errNode := exec.LookPath("node")
	npm, errNPM := exec.LookPath("npm")
	if errNode != nil || errNPM != nil {
		t.Skip("node or npm not found: the committed build of web/ts is not checked")
	}
	if _, err := os.Stat("ts/node_modules/esbuild"); err != nil {
		ci := exec.Command(npm, "ci", "--no-audit", "--no-fund", "--prefer-offline")
		ci.Dir = "ts"
		if out, err := ci.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in web/ts: %v\n%s", err, out)
		}
	}
	dir := t.TempDir()
	build := exec.Command(node, "build.mjs", "--outdir", dir)
	build.Dir = "ts"
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("node build.mjs: %v\n%s", err, out)
	}
	built := files(t, os.DirFS(dir), ".")
	committed := files(t, assetFS, "assets")
	delete(committed, "style.css") // written by hand, not built
	for name, b := range built {
		c, ok := committed[name]
		switch {
		case !ok:
			t.Errorf("assets/%s is built from web/ts but not committed: run `npm run build` in web/ts", name)
		case !bytes.Equal(b, c):
			t.Errorf("assets/%s is not the build of web/ts (%d bytes committed, %d built): run `npm run build` in web/ts", name, len(c), len(b))
		}
	}
	for name := range committed {
		if _, ok := built[name]; !ok {
			t.Errorf("assets/%s is committed but no longer built from web/ts: remove it", name)
		}
	}
	if len(built) < 2 {
		names := make([]string, 0, len(built))
		for n := range built {
			names = append(names, n)
		}
		sort.Strings(names)
		t.Errorf("the build wrote only %v", names)
	}
}

// files reads every file under root of fsys, by its path below root.
func files(t *testing.T, fsys fs.FS, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := fs.WalkDir(fsys, root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
