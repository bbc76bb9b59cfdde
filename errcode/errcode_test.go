package errcode_test

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/errcode"
)

// contract restates, independently of the package, every code of CONTRACT
// sections 3 to 10 and 13 and SPEC "Errors" with the status it is answered
// with.
var contract = map[string]int{
	// Plan routes.
	"BAD_XDR": 400, "BAD_NETWORK": 400, "NOT_A_CLOSE": 400, "EXPIRED": 400,
	"REJECTED": 400, "CAPACITY": 400, "ACCOUNT_UNREACHABLE": 400, "UNSIGNED": 400,
	"NOT_FOUND": 404,
	// The coordinator (CONTRACT section 10).
	"NOT_READY": 409, "SUBMIT_UNSUPPORTED": 400,
	// The relay-run forward (CONTRACT section 16).
	"BAD_FLOW": 400,
	// Every route.
	"PAYLOAD_TOO_LARGE": 413, "RATE_LIMITED": 429, "BAD_REQUEST": 400,
	"METHOD_NOT_ALLOWED": 405, "INTERNAL": 500, "UNAVAILABLE": 503,
	"TOO_MANY_SUBSCRIBERS": 503, "REQUEST_TIMEOUT": 408,
	// Mediator route.
	"MEDIATOR_NOT_CONFIGURED": 500, "INVALID_DESTINATION": 400,
	"INVALID_FLOW_TOKEN": 400, "INVALID_MEMO": 400,
	// Forward validation, and CONTRACT section 13's memo code.
	"MALFORMED_XDR": 400, "FEE_BUMP_NOT_ALLOWED": 400, "FORWARD_TX_SOURCE_NOT_MEDIATOR": 400,
	"WRONG_OPERATION_COUNT": 400, "FORWARD_OP0_NOT_PAYMENT": 400, "FORWARD_OP0_ASSET_NOT_NATIVE": 400,
	"FORWARD_OP0_SOURCE_NOT_MEDIATOR": 400, "FORWARD_OP1_NOT_ACCOUNT_MERGE": 400,
	"FORWARD_OP1_SOURCE_NOT_MEDIATOR": 400, "FORWARD_DESTINATION_MISMATCH": 400,
	"FORWARD_DESTINATION_NOT_COMMITTED": 400, "FORWARD_MEMO_NOT_COMMITTED": 400,
	"MISSING_TIME_BOUNDS": 400, "TIME_BOUNDS_EXCESSIVE": 400,
}

// specForward is SPEC "Forward validation codes", in order.
var specForward = []string{
	"MALFORMED_XDR", "FEE_BUMP_NOT_ALLOWED", "FORWARD_TX_SOURCE_NOT_MEDIATOR",
	"WRONG_OPERATION_COUNT", "FORWARD_OP0_NOT_PAYMENT", "FORWARD_OP0_ASSET_NOT_NATIVE",
	"FORWARD_OP0_SOURCE_NOT_MEDIATOR", "FORWARD_OP1_NOT_ACCOUNT_MERGE",
	"FORWARD_OP1_SOURCE_NOT_MEDIATOR", "FORWARD_DESTINATION_MISMATCH",
	"FORWARD_DESTINATION_NOT_COMMITTED", "MISSING_TIME_BOUNDS", "TIME_BOUNDS_EXCESSIVE",
}

// The table is exactly the contract's codes, each with its status, once.
func TestTableIsTheContract(t *testing.T) {
	all := errcode.All()
	seen := map[errcode.Code]bool{}
	for _, c := range all {
		if seen[c] {
			t.Errorf("%s is listed twice", c)
		}
		seen[c] = true
		want, ok := contract[string(c)]
		if !ok {
			t.Errorf("%s is not a code of the contract", c)
			continue
		}
		if !c.Known() || c.Status() != want {
			t.Errorf("%s: status %d (known %v), want %d", c, c.Status(), c.Known(), want)
		}
	}
	for code := range contract {
		if !seen[errcode.Code(code)] {
			t.Errorf("the contract's %s is not in the table", code)
		}
	}
	all[0] = "CHANGED"
	if errcode.All()[0] == "CHANGED" {
		t.Error("All shares its slice with the table")
	}
}

// Every Code constant the package declares is a row of the table: a code
// cannot be added without its explicit status. Read from the source, so a
// constant nobody lists is found too.
func TestEveryConstantHasAStatus(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "errcode.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
				continue
			}
			for i, name := range vs.Names {
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok {
					t.Fatalf("%s is not a string literal", name)
				}
				v, _ := strconv.Unquote(lit.Value)
				n++
				if !errcode.Code(v).Known() {
					t.Errorf("%s (%s) has no row in the table", name, v)
				}
			}
		}
	}
	if n != len(errcode.All()) {
		t.Errorf("%d Code constants, %d table rows", n, len(errcode.All()))
	}
}

// A code that is not in the table is internal: 500.
func TestUnknownCodeIs500(t *testing.T) {
	for _, c := range []errcode.Code{"", "MADE_UP", "bad_xdr", "NOT_FOUND "} {
		if c.Known() || c.Status() != 500 {
			t.Errorf("%q: known %v, status %d; want unknown, 500", c, c.Known(), c.Status())
		}
		if s := errcode.New(c, "x").Status(); s != 500 {
			t.Errorf("New(%q).Status() = %d, want 500", c, s)
		}
	}
}

func TestStatusOf(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{errors.New("disk on fire"), 500},
		{errcode.New(errcode.NotFound, "signing request not found"), 404},
		{fmt.Errorf("context: %w", errcode.New(errcode.RateLimited, "slow down")), 429},
		{errcode.New("MADE_UP", "x"), 500},
		{errcode.Wrap(errcode.MediatorNotConfigured, "unset", errors.New("cause")), 500},
		{errcode.New(errcode.MissingTimeBounds, "x"), 400},
	} {
		if got := errcode.StatusOf(tc.err); got != tc.want {
			t.Errorf("StatusOf(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

func TestError(t *testing.T) {
	cause := errors.New("mediator secret is not set")
	e := errcode.Wrap(errcode.MediatorNotConfigured, "the reason", cause)
	if e.Error() != "MEDIATOR_NOT_CONFIGURED: the reason" {
		t.Errorf("Error() = %q", e.Error())
	}
	if !errors.Is(e, cause) || !errors.Is(fmt.Errorf("w: %w", e), cause) {
		t.Error("the cause is not reachable with errors.Is")
	}
	if errcode.New(errcode.BadXDR, "x").Unwrap() != nil {
		t.Error("New has a cause")
	}
	if got := errcode.CodeOf(fmt.Errorf("w: %w", e)); got != errcode.MediatorNotConfigured {
		t.Errorf("CodeOf = %q", got)
	}
	if got := errcode.CodeOf(cause); got != "" {
		t.Errorf("CodeOf(uncoded) = %q, want empty", got)
	}
	// Struct literals stay valid for packages that build errors by hand.
	lit := &errcode.Error{Code: errcode.Rejected, Reason: "r"}
	if lit.Status() != 400 || lit.Unwrap() != nil {
		t.Errorf("literal: %d, %v", lit.Status(), lit.Unwrap())
	}
}

// The forward codes are SPEC's 13 in order; with the memo, CONTRACT section
// 13's code sits right after FORWARD_DESTINATION_NOT_COMMITTED.
func TestForwardCodes(t *testing.T) {
	got := errcode.ForwardCodes()
	if !slices.Equal(strs(got), specForward) {
		t.Errorf("ForwardCodes = %v\nwant SPEC's %v", got, specForward)
	}
	i := slices.Index(specForward, "FORWARD_DESTINATION_NOT_COMMITTED") + 1
	want := slices.Concat(specForward[:i], []string{"FORWARD_MEMO_NOT_COMMITTED"}, specForward[i:])
	if withMemo := errcode.ForwardCodesWithMemo(); !slices.Equal(strs(withMemo), want) {
		t.Errorf("ForwardCodesWithMemo = %v\nwant %v", withMemo, want)
	}
	got[0] = "CHANGED"
	errcode.ForwardCodesWithMemo()[0] = "CHANGED"
	if errcode.ForwardCodes()[0] != errcode.MalformedXDR || errcode.All()[len(errcode.All())-14] != errcode.MalformedXDR {
		t.Error("a returned slice is shared")
	}
}

// The package imports the standard library only, so every package may use it.
func TestNoDependencies(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "errcode.go", nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") {
			t.Errorf("errcode imports %s", path)
		}
	}
}

func strs(codes []errcode.Code) []string {
	out := make([]string, len(codes))
	for i, c := range codes {
		out[i] = string(c)
	}
	return out
}

// TestPublishStatus: the publish route answers every code with its status,
// except that SPEC gives it no 503: a 503 code is 400 there.
func TestPublishStatus(t *testing.T) {
	for _, c := range errcode.All() {
		want := c.Status()
		if want == 503 {
			want = 400
		}
		if got := c.PublishStatus(); got != want {
			t.Errorf("%s: publish status %d, want %d", c, got, want)
		}
	}
	if got := errcode.Unavailable.PublishStatus(); got != 400 {
		t.Errorf("UNAVAILABLE on publish: %d, want 400", got)
	}
	if got := errcode.Code("MADE_UP").PublishStatus(); got != 500 {
		t.Errorf("a code outside the table on publish: %d, want 500", got)
	}
}
