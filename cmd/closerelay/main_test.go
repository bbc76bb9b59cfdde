package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/internal/buildinfo"
)

// TestCommandLine: the server takes no arguments but --version and --help;
// an invalid environment exits 2 with one line naming the variable, before
// anything listens.
func TestCommandLine(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	for _, tc := range []struct {
		args     []string
		env      map[string]string
		code     int
		out, err string
		notOut   string
	}{
		{args: []string{"--version"}, code: exitOK, out: "closerelay " + buildinfo.Version() + " (revision " + buildinfo.Revision()},
		{args: []string{"--help"}, code: exitOK, out: "Usage: closerelay [serve]"},
		{args: []string{"publish"}, code: exitUsage, err: "closerelay: takes no arguments", notOut: "Usage"},
		{args: []string{"serve", "extra"}, code: exitUsage, err: "takes no arguments"},
		{env: map[string]string{"HORIZON_CONCURRENCY": "0"}, code: exitUsage, err: "closerelay: invalid configuration: HORIZON_CONCURRENCY:"},
		// An unusable LISTEN_ADDR too: were the variable not checked, the
		// test would end at the listen (exit 1), not serve.
		{env: map[string]string{"FORWARD_BUDGET": "169h", "LISTEN_ADDR": "256.0.0.1:99999"}, code: exitUsage, err: "closerelay: invalid configuration: FORWARD_BUDGET:"},
		{env: map[string]string{"FORWARD_RETENTION": "30s", "LISTEN_ADDR": "256.0.0.1:99999"}, code: exitUsage, err: "closerelay: invalid configuration: FORWARD_RETENTION:"},
		{env: map[string]string{"LISTEN_ADDR": "256.0.0.1:99999"}, code: exitFailed, err: "LISTEN_ADDR"},
	} {
		var out, errOut strings.Builder
		code := run(tc.args, env(tc.env), &out, &errOut)
		if code != tc.code || !strings.Contains(out.String(), tc.out) || !strings.Contains(errOut.String(), tc.err) ||
			(tc.notOut != "" && strings.Contains(out.String(), tc.notOut)) {
			t.Errorf("closerelay %q with %v: exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
				tc.args, tc.env, code, out.String(), errOut.String(), tc.code, tc.out, tc.err)
		}
	}
}

// TestUsageNamesEveryVariable: --help names every variable of
// docs/operating.md's environment table (variable, default, meaning),
// so that one added to the table is not missing from the command's help.
func TestUsageNamesEveryVariable(t *testing.T) {
	readme, err := os.ReadFile("../../docs/operating.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, found := strings.Cut(string(readme), "| variable | default | meaning |\n|---|---|---|\n")
	if !found {
		t.Fatal("docs/operating.md has no environment table (| variable | default | meaning |)")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	names := 0
	for _, row := range strings.Split(table, "\n") {
		first, _, _ := strings.Cut(strings.TrimPrefix(row, "| "), " | ")
		for _, name := range envName.FindAllString(first, -1) {
			names++
			if !strings.Contains(usage, name) {
				t.Errorf("closerelay --help does not name %s, which docs/operating.md's environment table has", name)
			}
		}
	}
	if names < 25 {
		t.Fatalf("read %d variables from docs/operating.md's environment table; has its shape changed?", names)
	}
}

// envName is a variable's name in the table's first column.
var envName = regexp.MustCompile("[A-Z][A-Z0-9_]+")

// TestUsageNamesTheRightTool: --help sends people to closerelayctl for the
// command line and to closerelaylab for the demo and the load tools (it
// once said demo and load were closerelayctl's, which has neither).
func TestUsageNamesTheRightTool(t *testing.T) {
	var ctl, lab string // the sentences that name each
	for _, para := range strings.Split(strings.ReplaceAll(usage, ". ", ".\n\n"), "\n\n") {
		para = strings.Join(strings.Fields(para), " ")
		if strings.Contains(para, " is closerelayctl") {
			ctl = para
		}
		if strings.Contains(para, " are closerelaylab") {
			lab = para
		}
	}
	if ctl == "" || lab == "" {
		t.Fatalf("closerelay --help names no closerelayctl paragraph (%q) or no closerelaylab one (%q):\n%s", ctl, lab, usage)
	}
	for _, w := range []string{"demo", "load"} {
		if strings.Contains(ctl, w) {
			t.Errorf("closerelay --help says %s is closerelayctl's: %q", w, ctl)
		}
		if !strings.Contains(lab, w) {
			t.Errorf("closerelay --help does not say %s is closerelaylab's: %q", w, lab)
		}
	}
}
