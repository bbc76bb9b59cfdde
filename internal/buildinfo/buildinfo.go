// Package buildinfo tells which build of closerelay is running: the version
// and revision stamped by the build (make build, the container image) or, for
// a plain `go build`, what the Go toolchain recorded in the binary.
package buildinfo

import (
	"runtime"
	"runtime/debug"
)

// Set by the build with -ldflags "-X <this package>.version=… -X ….revision=…";
// see the Makefile and deploy/Containerfile. Empty in a plain go build.
var (
	version  string
	revision string
)

// Version is the build's version: the stamped one, else the module version
// the toolchain recorded (a tag or pseudo-version when built from a module
// or a VCS checkout), else "devel".
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// Revision is the source revision: the stamped one, else the VCS revision the
// toolchain recorded (with "-dirty" for a modified tree), else "unknown".
func Revision() string {
	if revision != "" {
		return revision
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev, dirty string
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision":
				rev = s.Value
			case s.Key == "vcs.modified" && s.Value == "true":
				dirty = "-dirty"
			}
		}
		if rev != "" {
			return rev + dirty
		}
	}
	return "unknown"
}

// GoVersion is the toolchain that built the binary.
func GoVersion() string { return runtime.Version() }
