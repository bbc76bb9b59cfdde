package lab

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/closerelay/closerelay/internal/ctl"
	"github.com/closerelay/closerelay/ledger/corever"
	"github.com/labstack/echo/v4"
)

// The floor's bounds: a sign request's body is a few hundred bytes, and the
// relay's answer to a new signer of a 20-signer plan is 0.6 to 3.3 KB (the
// envelope and its signers grow with each), 2 KB on average over a plan.
const (
	floorBodyCap       = 64 << 10
	defaultFloorAnswer = 2048
	minFloorAnswer     = len(floorAnswerHead + floorAnswerTail)
	maxFloorAnswer     = 1 << 20
)

// The floor's answer: {"ok":true,"pad":"xxx…"} and a newline, padded to
// the size asked for.
const (
	floorAnswerHead = `{"ok":true,"pad":"`
	floorAnswerTail = "\"}\n"
)

// floorOptions are `load floor`'s settings; tests run it in process.
type floorOptions struct {
	listen      string
	answerBytes int
	json        bool // print the ready report as JSON
	// ready, when set, is called with the base URL once it listens.
	ready func(url string)
}

func (c *tool) loadFloor(args []string) int {
	fs := ctl.NewFlagSet("load floor", "load floor [flags]",
		"Serve the floor a relay cannot go below on this machine: POST\n"+
			"/api/plan/{id}/sign through echo on net/http, without the relay's\n"+
			"middlewares and its body guard. Its handler reads the body, verifies one\n"+
			"signature by stellar-core's rule\n"+
			"(ledger/corever, under one key made at start, so always in cache) and\n"+
			"answers 200 with --answer-bytes of JSON. Nothing else: no plan, no merge,\n"+
			"no state. The load kit sends it the same burst as the relay (wrk and\n"+
			"loadkit/wrk/admit.lua, any payload of `load local`), so that the relay's\n"+
			"rate can be read as a share of what the machine, the generator and the\n"+
			"HTTP stack leave for it. Print a line starting with \"ready\" that names the\n"+
			"address (relay=URL), and serve until SIGINT or SIGTERM.")
	o := floorOptions{}
	fs.StringVar(&o.listen, "listen", "127.0.0.1:0", "address (loopback only; port 0: a free port)")
	fs.IntVar(&o.answerBytes, "answer-bytes", defaultFloorAnswer, fmt.Sprintf("size of each answer, %d to %d", minFloorAnswer, maxFloorAnswer))
	ctl.JSONFlag(fs, &o.json)
	if _, code, done := c.Parse(fs, args, 0, ""); done {
		return code
	}
	ctx := context.Background()
	if c.Signals != nil {
		var stop context.CancelFunc
		ctx, stop = c.Signals(ctx)
		defer stop()
	}
	if err := runFloor(ctx, c.Stdout, o); err != nil {
		return c.Fail("load floor", o.json, err)
	}
	return ctl.ExitOK
}

// runFloor is `load floor`: it serves until ctx ends.
func runFloor(ctx context.Context, out io.Writer, o floorOptions) error {
	if o.answerBytes < minFloorAnswer || o.answerBytes > maxFloorAnswer {
		return ctl.Usagef("--answer-bytes takes %d to %d", minFloorAnswer, maxFloorAnswer)
	}
	if !isLoopback(o.listen) {
		return ctl.Usagef("--listen must be a loopback address, not %q", o.listen)
	}
	handler, err := floorHandler(o.answerBytes)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.listen)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	url := "http://" + ln.Addr().String()
	if o.json {
		b, _ := json.Marshal(struct {
			Relay       string `json:"relay"`
			AnswerBytes int    `json:"answerBytes"`
		}{url, o.answerBytes})
		fmt.Fprintf(out, "%s\n", b)
	} else {
		fmt.Fprintf(out, "ready relay=%s answer-bytes=%d\n", url, o.answerBytes)
	}
	if o.ready != nil {
		o.ready(url)
	}
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		return err
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// floorHandler is the floor's echo: one route, one verification per
// request.
func floorHandler(answerBytes int) (http.Handler, error) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		return nil, err
	}
	// A transaction's signature is over a 32-byte hash.
	hash := sha256.Sum256([]byte("closerelaylab load floor"))
	sig := ed25519.Sign(priv, hash[:])
	key, ok := corever.NewKey(pub)
	if !ok {
		return nil, errors.New("load floor: corever refuses a generated key")
	}
	answer := []byte(floorAnswerHead + strings.Repeat("x", answerBytes-minFloorAnswer) + floorAnswerTail)

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.POST("/api/plan/:id/sign", func(c echo.Context) error {
		body, err := io.ReadAll(http.MaxBytesReader(c.Response(), c.Request().Body, floorBodyCap))
		if err != nil || len(body) == 0 {
			return c.JSONBlob(http.StatusBadRequest, []byte(`{"ok":false,"error":"BAD_BODY"}`+"\n"))
		}
		if !key.Verify(hash[:], sig) {
			return c.JSONBlob(http.StatusInternalServerError, []byte(`{"ok":false,"error":"VERIFY"}`+"\n"))
		}
		return c.JSONBlob(http.StatusOK, answer)
	})
	return e, nil
}
