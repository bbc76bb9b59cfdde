// Command closerelaylab runs closerelay's demo (`make demo`) and load tools:
// each starts the relay in this process, wired as bin/closerelay wires it,
// with an account-API double, on loopback only. It is a tool for trying and
// measuring the relay, not what people install to use one (closerelayctl).
package main

import (
	"os"

	"github.com/closerelay/closerelay/internal/lab"
)

func main() { os.Exit(lab.Main(os.Args[1:])) }
