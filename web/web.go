// Package web serves the co-signers' pages of CONTRACT section 11: a short
// landing page that opens a plan by id, and the plan page. The plan page
// puts the decision first (which account closes, where its funds go and how
// much), then the ledger check's verdict, the progress (signers, weight,
// the submission, one end time), the ways to sign while they apply (the
// SEP-7 link with its QR code, a form to paste an envelope signed
// elsewhere), what each operation does and the envelopes to copy; it
// follows the plan live over its event stream. The paste form's route is
// the caller's; this package renders its answers (PlanNotice).
//
// Pages are rendered on the server with html/template, so they read fully
// without JavaScript. The stylesheet and the one script are embedded files
// served under /assets/; no page has inline script or style and nothing is
// loaded from elsewhere, so every response carries
// Content-Security-Policy: default-src 'self'.
//
// The package reads plans only through the Plans interface; it knows neither
// the actor nor the store behind it.
package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/plan"
	"github.com/closerelay/closerelay/wire"
)

// ErrNotFound and ErrUnavailable are the coded failures Plans.Page
// answers with (package relay's): the page tells a plan by its error's code
// (errcode.CodeOf), so any error carrying errcode.NotFound is the 404 page
// and any carrying errcode.Unavailable the 503 page, as the JSON routes
// answer them. These two are for a Plans of one's own, a test's say.
var (
	ErrNotFound    error = errcode.New(errcode.NotFound, "signing request not found")
	ErrUnavailable error = errcode.New(errcode.Unavailable, "the relay's plan store is unreachable; retry shortly")
)

// Plans is the view of the plans that the pages need (relay.Service).
type Plans interface {
	// Page returns the state of plan id (64 lowercase hex characters), or
	// an error carrying errcode.NotFound when no such plan is open, or
	// errcode.Unavailable when plans cannot be read now. Any other error
	// is answered 500.
	Page(ctx context.Context, id string) (PageData, error)
}

// PageData is one plan as the page shows it. The page derives the rest: the
// decoded transaction from XDR, the SEP-7 link (sep7.ForPlan with
// Config.PublicURL) and its QR code, the time left from Expiry.
type PageData struct {
	ID      string         // the plan id, 64 lowercase hex characters
	Network ledger.Network // mainnet, testnet or futurenet
	XDR     string         // the current envelope (GET /api/plan/{id})

	// Signers are the closing account's candidate signers with their
	// weights, Signed set for those whose signature the envelope carries.
	Signers []Signer

	// Weight, Threshold and Ready as in CONTRACT/API 3.4. A Threshold of 0
	// means "not known": the page shows the count of signatures instead.
	Weight    int
	Threshold int
	Ready     bool

	Expiry time.Time // the plan's end; past it the page is a 404

	// ReadyXDR is the submit-ready envelope (GET /api/plan/{id}/ready) once
	// Ready, else "".
	ReadyXDR string

	// Preflight is the plan's latest preflight run (CONTRACT section 14),
	// shown above everything else; a zero State means none ran (a plan
	// restored from a store written before there was one) and the page
	// says nothing of it.
	Preflight ledger.PreflightRun

	// Version is the plan's version (1 at publish, +1 for each change of
	// the envelope); 0 means unknown, and the page is then rendered anew
	// for every request instead of served again from memory.
	Version uint64

	// Funds is what the preflight's read of the closing account found it
	// holds; nil when not known (no read, or a read that failed): the
	// page then says "the whole balance" without a figure.
	Funds *Funds

	// Submission is the relay's submission of the close (CONTRACT section
	// 10); a zero State means none has started.
	Submission plan.Submission

	// Flow is the mediator flow a close through a mediator commits to
	// (CONTRACT section 16): the final destination and memo. nil when the
	// plan has none, or none is known to the caller; the page then says
	// that the funds go through a mediator without naming where to.
	Flow *Flow

	// Forward is the relay's forward from the mediator (CONTRACT section
	// 16); nil until one has started.
	Forward *plan.Forward
}

// Funds is the closing account's native balance as the preflight read it.
type Funds struct {
	Native int64     // stroops
	Read   time.Time // when it was read
}

// Flow is a mediator flow's commitment (CONTRACT sections 13 and 16).
type Flow struct {
	Destination string // G… the mediator forwards to
	Memo        string // "<type>:<value>" as minted (text:, id:, hash:, return:); "" for none
}

// Signer is one candidate signer of the closing account.
type Signer struct {
	Key    string // G… address
	Weight int
	Signed bool // the envelope carries its signature
}

// Config tunes a Handler. The zero value works: no callback in SEP-7 links,
// the real clock, slog's default logger.
type Config struct {
	// PublicURL is PUBLIC_URL: the base of SEP-7 callbacks. Empty: links
	// carry no callback.
	PublicURL string
	// Now is the clock for "time left"; nil means time.Now.
	Now func() time.Time
	// Logger receives unexpected Plans errors; nil means slog.Default().
	Logger *slog.Logger
	// WalletConnectProjectID is WALLETCONNECT_PROJECT_ID: when set, the
	// plan page's "Sign with a wallet" offers WalletConnect too, and the
	// page's Content-Security-Policy lets it reach WalletConnect's servers.
	WalletConnectProjectID string
}

// Paths the handler serves. Route GET (and HEAD) on each to the Handler.
const (
	PathLanding = "/"               // landing page
	PathOpen    = "/plan"           // the landing form's target: ?id=… → 303 to /plan/{id}
	PathPlan    = "/plan/"          // + id: the plan page
	PathAssets  = "/assets/"        // + name: style.css, plan.js
	PathWallet  = "/assets/wallet/" // + name: the wallet module (wallet.js) and its chunks
	CSP         = "default-src 'self'"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed assets
var assetFS embed.FS

// assetNames maps each embedded asset's name to the name it is served
// under: its content's hash in the name, so a page always loads the
// version it was rendered with and a browser may keep it for good. The
// wallet module's files are under "wallet/" (web/ts/build.mjs); its chunks
// are named by their content already (esbuild's [hash]) and imported by
// those names, so they are served as they are.
var assetNames = func() map[string]string {
	names := map[string]string{}
	err := fs.WalkDir(assetFS, "assets", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		name := strings.TrimPrefix(p, "assets/")
		if walletChunk.MatchString(name) {
			names[name] = name
			return nil
		}
		b, err := fs.ReadFile(assetFS, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		ext := path.Ext(name)
		names[name] = strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:6]) + ext
		return nil
	})
	if err != nil {
		panic("web: embedded assets: " + err.Error())
	}
	return names
}()

// walletChunk is the name esbuild gives a chunk of the wallet module
// (build.mjs: chunkNames "wallet-[hash]").
var walletChunk = regexp.MustCompile(`^wallet/wallet-[A-Z0-9]{8}\.js$`)

// assetFiles is the reverse of assetNames: served name to embedded file.
var assetFiles = func() map[string]string {
	files := map[string]string{}
	for name, hashed := range assetNames {
		files[hashed] = name
	}
	return files
}()

var funcs = template.FuncMap{
	"asset": func(name string) string { return PathAssets + assetNames[name] },
	"when":  when,
	"iso":   func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
}

// when is a time as the pages write it; plan.js writes the same.
func when(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }

func page(name string) *template.Template {
	return template.Must(template.New(name).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+name+".html"))
}

var (
	landingPage = page("landing")
	planPage    = page("plan")
	messagePage = page("message")
)

// Handler serves the pages and their assets. Build it with New.
type Handler struct {
	plans  Plans
	cfg    Config
	mux    *http.ServeMux
	builds builds
	// planCSP is the plan page's Content-Security-Policy (PlanCSP).
	planCSP string
}

// New returns the handler of the pages, reading plans through plans.
func New(plans Plans, cfg Config) *Handler {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	h := &Handler{plans: plans, cfg: cfg, mux: http.NewServeMux(), planCSP: PlanCSP(cfg.WalletConnectProjectID != "")}
	h.mux.HandleFunc("GET /{$}", h.landing)
	h.mux.HandleFunc("GET /plan", h.open)
	h.mux.HandleFunc("GET /plan/{id}", h.plan)
	h.mux.HandleFunc("GET /assets/{name}", h.asset)
	h.mux.HandleFunc("GET "+PathWallet+"{name}", h.asset)
	h.mux.HandleFunc("/", h.notFound)
	return h
}

// SetHeaders sets the headers every response of the pages carries:
// Cache-Control: no-store, the Content-Security-Policy, nosniff, and no
// framing or referrer. The lead's rate limiter can use it on its 429.
func SetHeaders(h http.Header) {
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", CSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
}

// ServeHTTP serves GET and HEAD on the paths above; any other path under the
// handler is the 404 page.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	SetHeaders(w.Header())
	if hasDotSegment(r.URL.Path) {
		// ServeMux would redirect to the cleaned path, and a path such as
		// /plan/../%5Cevil.example cleans to one that a browser reads as
		// another host: no page here has dot segments, so it is a 404.
		h.notFound(w, r)
		return
	}
	h.mux.ServeHTTP(w, r)
}

// hasDotSegment reports whether p has a "." or ".." segment, the only ones
// path cleaning would remove besides empty ones, which are 404s too.
func hasDotSegment(p string) bool {
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return strings.Contains(p, "//")
}

// TooManyRequests writes the 429 page with Retry-After in whole seconds (at
// least 1), for the lead's limiter on the HTML routes.
func TooManyRequests(w http.ResponseWriter, retryAfter time.Duration) {
	secs := wire.RetryAfterSeconds(retryAfter)
	SetHeaders(w.Header())
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	render(w, http.StatusTooManyRequests, messagePage, message{
		Title: "Too many requests", Heading: "Too many requests",
		Text: "This address asked for pages too often. Wait " + plural(secs, "second") + ", then reload.",
	})
}

type message struct {
	Title, Heading, Text string
}

func (h *Handler) notFound(w http.ResponseWriter, _ *http.Request) {
	render(w, http.StatusNotFound, messagePage, message{
		Title:   "Plan not found",
		Heading: "Plan not found",
		Text: "No open plan has this address. A plan disappears at its expiry, and the relay keeps plans " +
			"in memory only. Check the id, or ask the publisher for a new link.",
	})
}

func (h *Handler) internal(w http.ResponseWriter) {
	render(w, http.StatusInternalServerError, messagePage, message{
		Title: "Something went wrong", Heading: "Something went wrong",
		Text: "The relay could not show this plan. Try again in a moment.",
	})
}

// unavailable is the 503 page: the plans cannot be read for now.
func (h *Handler) unavailable(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "5")
	render(w, http.StatusServiceUnavailable, messagePage, message{
		Title: "Temporarily unavailable", Heading: "Temporarily unavailable",
		Text: "The relay cannot read its plans right now. Nothing is lost: reload in a few seconds.",
	})
}

type landing struct {
	Value string // the rejected input, to correct it
	Error string
}

func (h *Handler) landing(w http.ResponseWriter, _ *http.Request) {
	render(w, http.StatusOK, landingPage, landing{})
}

// open is the landing form's target: a valid id redirects to its page.
func (h *Handler) open(w http.ResponseWriter, r *http.Request) {
	raw := r.URL.Query().Get("id")
	typed := strings.TrimSpace(raw)
	id, ok := wire.ParsePlanID(typed)
	if !ok {
		msg := "A plan id is 64 hexadecimal characters (0-9, a-f)."
		if typed == "" {
			msg = "Enter a plan id: 64 hexadecimal characters."
		}
		if len(raw) > 200 {
			raw = raw[:200]
		}
		render(w, http.StatusBadRequest, landingPage, landing{Value: strings.ToValidUTF8(raw, ""), Error: msg})
		return
	}
	http.Redirect(w, r, PathPlan+id, http.StatusSeeOther)
}

// ValidID reports whether id is a plan id, 64 hex characters in either
// case; the API routes take the same ids (package wire).
func ValidID(id string) bool { return wire.ValidPlanID(id) }

func (h *Handler) plan(w http.ResponseWriter, r *http.Request) {
	id, ok := wire.ParsePlanID(r.PathValue("id"))
	if !ok {
		h.notFound(w, r)
		return
	}
	if d, now, ok := h.page(w, r, id); ok {
		h.servePlan(w, d, now)
	}
}

// page reads plan id for its page, with the instant it was read at; ok
// false when it has answered the request itself: the 404 page for a plan
// gone (past its expiry too), the 503 page for a store that cannot be
// read, told by the error's code (errcode.CodeOf: relay's errors are
// values of their own, wrapped or not), else the 500 page. The plan page
// and the sign form's answer (PlanNotice) read it the same way.
func (h *Handler) page(w http.ResponseWriter, r *http.Request, id string) (d PageData, now time.Time, ok bool) {
	d, err := h.plans.Page(r.Context(), id)
	switch code := errcode.CodeOf(err); {
	case code == errcode.NotFound:
		h.notFound(w, r)
		return d, now, false
	case code == errcode.Unavailable:
		h.unavailable(w)
		return d, now, false
	case err != nil:
		if r.Context().Err() == nil {
			h.cfg.Logger.Error("plan page", "id", id, "err", err)
		}
		h.internal(w)
		return d, now, false
	}
	now = h.cfg.Now()
	if !d.Expiry.IsZero() && !now.Before(d.Expiry) {
		h.notFound(w, r)
		return d, now, false
	}
	d.ID = id
	return d, now, true
}

func (h *Handler) asset(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if strings.HasPrefix(r.URL.Path, PathWallet) {
		name = "wallet/" + name
	}
	file, hashed := assetFiles[name]
	if !hashed {
		file = name // a page rendered before a restart may name it plainly
	}
	var ctype string
	switch path.Ext(name) {
	case ".css":
		ctype = "text/css; charset=utf-8"
	case ".js":
		ctype = "text/javascript; charset=utf-8"
	default:
		h.notFound(w, r)
		return
	}
	b, err := fs.ReadFile(assetFS, "assets/"+file)
	if err != nil {
		h.notFound(w, r)
		return
	}
	if hashed {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// render executes t into a buffer first, so a failure never leaves half a
// page, then writes it with status.
func render(w http.ResponseWriter, status int, t *template.Template, data any) {
	body, err := execute(t, data)
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	writePage(w, status, body)
}

// execute renders t's layout with data; a failure is logged (it is a bug
// of ours: the templates take no input that can fail them).
func execute(t *template.Template, data any) ([]byte, error) {
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", data); err != nil {
		slog.Default().Error("web: template", "template", t.Name(), "err", err)
		return nil, err
	}
	return buf.Bytes(), nil
}

// writePage writes an HTML page with status.
func writePage(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}
