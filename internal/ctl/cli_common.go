package ctl

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/wire"
	"github.com/stellar/go-stellar-sdk/keypair"
	"golang.org/x/term"
)

// Exit codes of every subcommand. They mean the same everywhere so scripts
// can branch on them.
const (
	ExitOK        = 0 // done
	ExitRefused   = 1 // the server (or, for resume, the flow's expiry) refused the request
	ExitUsage     = 2 // bad flags, arguments or local input; nothing was sent
	ExitTransport = 3 // the server could not be reached, or its answer could not be used
)

// Environment variables the subcommands read. The secret is only ever read
// from the environment or standard input: an argument would land in shell
// history and in every process listing.
const (
	EnvURL     = "CLOSERELAY_URL"
	EnvNetwork = "CLOSERELAY_NETWORK"
	EnvSecret  = "CLOSERELAY_SECRET"
	EnvHorizon = "CLOSERELAY_HORIZON_URL"
	EnvRPC     = "CLOSERELAY_RPC_URL"
)

// CLI is one invocation's world: its streams and environment, injected so
// tests can run subcommands in process and read what they print. Its
// methods are the commands' shared plumbing (flags, output, exit codes);
// closerelaylab's commands (package lab) use them too.
type CLI struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// Signals makes a context that ends on SIGINT/SIGTERM, so that an
	// interrupted watch ends cleanly; tests keep the plain context.
	Signals func(context.Context) (context.Context, context.CancelFunc)
	// Transport carries every HTTP request the command makes, to the relay
	// and to the account API; nil is http.DefaultTransport. Tests record
	// what is dialled with it.
	Transport http.RoundTripper
	// Prog is the program's name, as messages and help begin; empty is
	// closerelayctl.
	Prog string
}

// Name is the program's name, as messages and help begin.
func (c *CLI) Name() string {
	if c.Prog == "" {
		return "closerelayctl"
	}
	return c.Prog
}

// httpClient is an HTTP client on c's transport. timeout 0 means none
// (required for event streams; their calls are bounded by contexts).
func (c *CLI) httpClient(timeout time.Duration) *http.Client {
	return &http.Client{Transport: c.Transport, Timeout: timeout}
}

// OS is the CLI of a process named prog: its standard streams and
// environment, ended by SIGINT or SIGTERM.
func OS(prog string) *CLI {
	return &CLI{
		Prog:  prog,
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv,
		Signals: func(ctx context.Context) (context.Context, context.CancelFunc) {
			return signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
		},
	}
}

// UsageError is a mistake in the command line or in local input.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

// Usagef is a UsageError: exit code ExitUsage.
func Usagef(format string, args ...any) error { return &UsageError{fmt.Sprintf(format, args...)} }

// RefusedError is a refusal decided on the client side for the server, e.g.
// a flow token past its expiry: sending it would only be refused.
type RefusedError struct{ err error }

func (e *RefusedError) Error() string { return e.err.Error() }
func (e *RefusedError) Unwrap() error { return e.err }

// Common are the flags every subcommand that talks to a relay takes.
type Common struct {
	Relay   string
	JSON    bool
	Timeout time.Duration
}

// The relay's base URL is --relay on every command; --url, its name on some
// commands before, is a hidden alias that says it is deprecated.
const (
	relayFlag      = "relay"
	relayFlagAlias = "url"
	defaultRelay   = "http://127.0.0.1:8080"
)

// CommonFlags registers the flags of Common on fs.
func (c *CLI) CommonFlags(fs *FlagSet, defaultTimeout time.Duration) *Common {
	o := &Common{}
	def := c.Getenv(EnvURL)
	if def == "" {
		def = defaultRelay
	}
	fs.StringVar(&o.Relay, relayFlag, def, "relay base `URL` (env "+EnvURL+")")
	fs.hide(relayFlagAlias)
	fs.StringVar(&o.Relay, relayFlagAlias, def, "deprecated name of --"+relayFlag)
	JSONFlag(fs, &o.JSON)
	fs.DurationVar(&o.Timeout, "timeout", defaultTimeout, "give up after this long (0: never)")
	return o
}

// JSONFlag registers --json, which every command takes.
func JSONFlag(fs *FlagSet, p *bool) {
	fs.BoolVar(p, "json", false, "print JSON instead of text, for scripts")
}

// FlagSet is a subcommand's flags with the text its --help prints.
type FlagSet struct {
	*flag.FlagSet
	synopsis, about string
	hidden          map[string]bool // flags --help does not list
	// checks run once the flags are parsed: a default from the
	// environment that is not valid is reported only when it is used.
	checks []func() error
}

// NewFlagSet returns a FlagSet that reports nothing itself: parse prints
// help to stdout for --help and errors with help to stderr, once.
func NewFlagSet(name, synopsis, about string) *FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &FlagSet{FlagSet: fs, synopsis: synopsis, about: about, hidden: map[string]bool{}}
}

func (fs *FlagSet) hide(name string) { fs.hidden[name] = true }

func (fs *FlagSet) help(w io.Writer, prog string) {
	fmt.Fprintf(w, "Usage: %s %s\n\n%s\n", prog, fs.synopsis, fs.about)
	var b strings.Builder
	fs.VisitAll(func(f *flag.Flag) {
		if !fs.hidden[f.Name] {
			writeFlag(&b, f)
		}
	})
	if b.Len() > 0 {
		fmt.Fprintf(w, "\nFlags:\n%s", b.String())
	}
}

// writeFlag prints one flag as the README writes it, --name with two
// dashes (Go's flag package prints one), then its usage and default.
func writeFlag(b *strings.Builder, f *flag.Flag) {
	arg, usage := flag.UnquoteUsage(f)
	b.WriteString("  --" + f.Name)
	if arg != "" {
		b.WriteString(" " + arg)
	}
	switch f.DefValue {
	case "", "false", "0", "0s":
	default:
		if g, ok := f.Value.(flag.Getter); ok && isString(g.Get()) {
			usage += fmt.Sprintf(" (default %q)", f.DefValue)
		} else {
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
	}
	b.WriteString("\n    \t" + strings.ReplaceAll(usage, "\n", "\n    \t") + "\n")
}

func isString(v any) bool { _, ok := v.(string); return ok }

// doubleDash rewrites the flag package's error texts, which name a flag
// with one dash, to the two the help and the README use.
func doubleDash(msg string) string {
	for _, p := range []string{"not defined: -", "for flag -", "needs an argument: -"} {
		msg = strings.Replace(msg, p, p+"-", 1)
	}
	return msg
}

// Parse parses flags anywhere among the arguments (Go's flag package stops
// at the first positional one, and `closerelayctl get ID --json` should work),
// requires exactly nPos positionals when nPos >= 0, and handles --help.
// done is true when the command should exit with code at once.
func (c *CLI) Parse(fs *FlagSet, args []string, nPos int, posName string) (pos []string, code int, done bool) {
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			fs.help(c.Stdout, c.Name())
			return nil, ExitOK, true
		}
		if name := unknownFlag(err); name != "" {
			// One line, not the whole help: the nearest flag when one is near.
			msg := fmt.Sprintf("%s %s: unknown flag --%s", c.Name(), fs.Name(), name)
			if s := Suggest(name, fs.flagNames()); s != "" {
				msg += fmt.Sprintf("; did you mean --%s?", s)
			}
			fmt.Fprintf(c.Stderr, "%s (%s %s --help lists the flags)\n", msg, c.Name(), fs.Name())
			return nil, ExitUsage, true
		}
		if err != nil {
			// One line, as for an unknown flag: the value's own error says
			// what is wanted.
			fmt.Fprintf(c.Stderr, "%s %s: %s (%s %s --help lists the flags)\n", c.Name(), fs.Name(), doubleDash(err.Error()), c.Name(), fs.Name())
			return nil, ExitUsage, true
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	for _, check := range fs.checks {
		if err := check(); err != nil {
			fmt.Fprintf(c.Stderr, "%s %s: %s (see %s %s --help)\n", c.Name(), fs.Name(), err, c.Name(), fs.Name())
			return nil, ExitUsage, true
		}
	}
	if flagGiven(fs, relayFlagAlias) {
		fmt.Fprintf(c.Stderr, "%s %s: --%s is deprecated; use --%s\n", c.Name(), fs.Name(), relayFlagAlias, relayFlag)
	}
	if nPos >= 0 && len(pos) != nPos {
		if len(pos) < nPos {
			fmt.Fprintf(c.Stderr, "%s %s: missing %s\n\n", c.Name(), fs.Name(), posName)
		} else {
			// The value is not echoed: a secret pasted as an argument
			// should not be printed back to the terminal and its logs.
			fmt.Fprintf(c.Stderr, "%s %s: %d arguments given, %d expected\n\n", c.Name(), fs.Name(), len(pos), nPos)
		}
		fs.help(c.Stderr, c.Name())
		return nil, ExitUsage, true
	}
	return pos, ExitOK, false
}

// Client returns a client of the relay at o.Relay, on c's transport.
func (c *CLI) Client(o *Common, opts ...client.Option) (*client.Client, error) {
	hc := c.httpClient(0)
	hc.Transport = relayTransport{base: c.Transport, url: o.Relay}
	opts = append([]client.Option{client.WithUserAgent("closerelay-cli/1"), client.WithHTTPClient(hc)}, opts...)
	cl, err := client.New(o.Relay, opts...)
	if err != nil {
		return nil, Usagef("--%s: %q is not an http(s) base URL", relayFlag, o.Relay)
	}
	return cl, nil
}

// Context bounds a command by --timeout.
func (o *Common) Context(parent context.Context) (context.Context, context.CancelFunc) {
	if o.Timeout > 0 {
		return context.WithTimeout(parent, o.Timeout)
	}
	return context.WithCancel(parent)
}

// Fail reports err and returns its exit code: in JSON mode as an object on
// stdout, so a script reads one stream; otherwise as one line on stderr,
// "closerelayctl CMD: message", the command named once (see Message).
func (c *CLI) Fail(cmd string, jsonOut bool, err error) int {
	code := ExitTransport
	var apiErr *client.Error
	var ue *UsageError
	var re *RefusedError
	var be *blockedError
	// The relay's error body, with the HTTP status and wait when the relay
	// answered; the command's own failures take codes of their own.
	var out struct {
		wire.Error
		Status            int    `json:"status,omitempty"`
		RetryAfterSeconds int    `json:"retryAfterSeconds,omitempty"`
		Hint              string `json:"hint,omitempty"`
		// Preflight is the relay's verdict on a close the command would
		// not act on (BLOCKED).
		Preflight *wire.Preflight `json:"preflight,omitempty"`
	}
	var unreachable *relayUnreachableError
	out.Hint = hintFor(err)
	switch {
	case errors.As(err, &apiErr):
		code = ExitRefused
		out.Status, out.Code, out.Reason = apiErr.Status, apiErr.Code, apiErr.Reason
		out.RetryAfterSeconds = int(apiErr.RetryAfter / time.Second)
		if foreignAnswer(apiErr) != "" {
			// Another server's body (Horizon's JSON, say) is noise here:
			// the status and the hint say what happened.
			code, out.Code = ExitTransport, "NOT_A_RELAY"
			out.Reason = fmt.Sprintf("%d %s from a server that is not a closerelay relay", apiErr.Status, http.StatusText(apiErr.Status))
			err = errors.New(out.Reason)
		}
	case errors.As(err, &ue):
		code = ExitUsage
		out.Code, out.Reason = "USAGE", Message(ue)
	case errors.As(err, &be):
		code = ExitRefused
		out.Code, out.Reason, out.Preflight = "BLOCKED", Message(be), be.pf
	case errors.As(err, &re):
		code = ExitRefused
		out.Code, out.Reason = "REFUSED", Message(re)
	case errors.As(err, &unreachable):
		// The request's URL is in the message already: without the
		// HTTP client's "Get URL:" before it.
		err = unreachable
		out.Hint = fmt.Sprintf("is the relay running? Start one, or point --%s (or %s) at it", relayFlag, EnvURL)
		out.Code, out.Reason = "TRANSPORT", Message(err)
	default:
		out.Code, out.Reason = "TRANSPORT", Message(err)
	}
	if jsonOut {
		c.PrintJSON(out)
	} else {
		fmt.Fprintf(c.Stderr, "%s %s: %s\n", c.Name(), cmd, Message(err))
		if out.Hint != "" {
			fmt.Fprintln(c.Stderr, out.Hint)
		}
		if code == ExitUsage {
			fmt.Fprintf(c.Stderr, "(see %s %s --help)\n", c.Name(), cmd)
		}
	}
	return code
}

// libraryPrefixes are the package names the client libraries start their
// error texts with. Fail already names the program and the command, so
// "closerelayctl sign: closerelay: 400 …" would name the program twice.
var libraryPrefixes = []string{"closerelay: ", "client: ", "wallet: "}

// Message is err's text without the library prefixes, at its start or
// after a wrapping "context: ".
func Message(err error) string {
	s := err.Error()
	for changed := true; changed; {
		before := s
		for _, p := range libraryPrefixes {
			s = strings.TrimPrefix(s, p)
			s = strings.ReplaceAll(s, ": "+p, ": ")
		}
		changed = s != before
	}
	return s
}

// PrintJSON prints v as one line of JSON on standard output, with & < >
// as they are (an XDR or a URL stays readable).
func (c *CLI) PrintJSON(v any) { c.printJSONTo(c.Stdout, v) }

// printJSONTo prints v as PrintJSON does, on w.
func (c *CLI) printJSONTo(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// readInput is the positional argument, or standard input when it is "-"
// or absent (the XDR of a transaction is long; pipes are the usual way).
func (c *CLI) readInput(pos []string, what string) (string, error) {
	if len(pos) > 0 && pos[0] != "-" {
		return strings.TrimSpace(pos[0]), nil
	}
	b, err := io.ReadAll(io.LimitReader(c.Stdin, 1<<20))
	if err != nil {
		return "", Usagef("read %s from standard input: %v", what, err)
	}
	s := strings.TrimSpace(string(b))
	if s == "" {
		return "", Usagef("no %s given (as an argument, or on standard input)", what)
	}
	return s, nil
}

// readSecret reads the signing seed from the environment variable name or,
// when that is unset, from the first line of standard input: typed without
// echo when standard input is a terminal. The value is never printed, not
// even in an error.
func (c *CLI) readSecret(name string) (*keypair.Full, error) {
	s := c.Getenv(name)
	from := "$" + name
	if s == "" {
		from = "standard input"
		var err error
		if s, err = c.readSecretLine(); err != nil {
			return nil, err
		}
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, Usagef("no secret: set %s or write the S… seed on standard input", name)
	}
	kp, err := keypair.ParseFull(s)
	if err != nil {
		return nil, Usagef("the secret from %s is not a valid S… seed (value not shown)", from)
	}
	return kp, nil
}

// readSecretLine reads one line of standard input. From a terminal it
// prompts on standard error and turns echo off while the seed is typed;
// from a pipe or a file it reads the first line.
func (c *CLI) readSecretLine() (string, error) {
	if f, ok := c.Stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(c.Stderr, "secret seed (S…, not shown as you type): ")
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(c.Stderr)
		if err != nil {
			return "", Usagef("read the secret from the terminal: %v", err)
		}
		return string(b), nil
	}
	line, err := bufio.NewReader(io.LimitReader(c.Stdin, 4096)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", Usagef("read the secret from standard input: %v", err)
	}
	return line, nil
}

// ShortKey is a G… key as people read it in a line of output: its start
// and its end.
func ShortKey(k string) string {
	if len(k) < 12 {
		return k
	}
	return k[:5] + "…" + k[len(k)-4:]
}
