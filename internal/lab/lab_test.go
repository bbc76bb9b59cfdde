package lab

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/internal/ctl"
)

// labCommands is every closerelaylab command, with whether it talks to a
// relay of its own choosing (--relay).
var labCommands = []struct {
	args  []string
	relay bool
}{
	{[]string{"demo"}, false},
	{[]string{"load", "local"}, false},
	{[]string{"load", "prepare"}, true},
	{[]string{"load", "routes"}, false}, // its relay is the payload's
	{[]string{"load", "admit"}, false},
}

// TestLabHelpAndFlags: every command answers --help with its usage, under
// closerelaylab's name; flags are shown with two dashes, every command
// takes --json, and docs/command-line.md names every command
// and flag, as for closerelayctl's commands.
func TestLabHelpAndFlags(t *testing.T) {
	page, err := os.ReadFile("../../docs/command-line.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(page)
	for _, cmd := range labCommands {
		name := strings.Join(cmd.args, " ")
		r := runCLI(t, nil, "", append(slices.Clone(cmd.args), "--help")...)
		if r.code != ctl.ExitOK || r.stderr != "" || !strings.HasPrefix(r.stdout, "Usage: closerelaylab "+name) {
			t.Fatalf("%s --help: %d stdout %q stderr %q", name, r.code, r.stdout, r.stderr)
		}
		var flags []string
		for _, m := range regexp.MustCompile(`(?m)^  (-+)([a-z-]+)`).FindAllStringSubmatch(r.stdout, -1) {
			if m[1] != "--" {
				t.Errorf("%s --help lists %s%s", name, m[1], m[2])
			}
			flags = append(flags, m[2])
		}
		if !slices.Contains(flags, "json") {
			t.Errorf("%s takes no --json", name)
		}
		if slices.Contains(flags, "relay") != cmd.relay {
			t.Errorf("%s: --relay listed %v, want %v", name, slices.Contains(flags, "relay"), cmd.relay)
		}
		if !strings.Contains(doc, "closerelaylab "+name) {
			t.Errorf("docs/command-line.md does not document %q", "closerelaylab "+name)
		}
		for _, f := range flags {
			if !strings.Contains(doc, "--"+f) {
				t.Errorf("docs/command-line.md does not mention %s's --%s", name, f)
			}
		}
	}
	for _, args := range [][]string{{"help"}, {"--help"}, {"load", "help"}} {
		if r := runCLI(t, nil, "", args...); r.code != ctl.ExitOK || !strings.Contains(r.stdout, "--json") {
			t.Errorf("%v: code %d stdout %q", args, r.code, r.stdout)
		}
	}
	// closerelayctl's commands are not closerelaylab's.
	var c tool
	c.CLI = &ctl.CLI{Stdin: strings.NewReader(""), Stdout: &strings.Builder{}, Stderr: &strings.Builder{}, Getenv: func(string) string { return "" }}
	if code := c.run([]string{"build"}); code != ctl.ExitUsage || !strings.HasPrefix(c.Stderr.(*strings.Builder).String(), `closerelaylab: unknown command "build"`) {
		t.Errorf("closerelaylab build: exit %d stderr %q", code, c.Stderr)
	}
}
