// Command closerelayctl is closerelay's command line for people: publish a
// close, build one, sign it, watch it, fetch its submit-ready envelope, and
// drive a mediator flow. It talks to a relay over HTTP, like any wallet,
// and links no server package (deps_test.go); the server is the closerelay
// binary, and the demo and load tools, which start one, are closerelaylab.
package main

import (
	"os"

	"github.com/closerelay/closerelay/internal/ctl"
)

func main() { os.Exit(ctl.Main(os.Args[1:])) }
