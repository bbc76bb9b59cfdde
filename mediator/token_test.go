package mediator

import (
	"bytes"
	"encoding/hex"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/errcode"
	mt "github.com/closerelay/closerelay/mediator/mediatortest"
)

var tokenShape = regexp.MustCompile(`^[0-9a-f]{32}\.[0-9]+\.G[A-Z2-7]{55}\.[0-9a-f]{64}$`)

func TestMint(t *testing.T) {
	m := testMaster(t)
	rnd := bytes.NewReader([]byte{0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff})
	now := t0.Add(123 * time.Millisecond)
	token, pub, err := m.Mint(rnd, testDest, now)
	if err != nil {
		t.Fatal(err)
	}
	if !tokenShape.MatchString(token) {
		t.Fatalf("token %q has the wrong shape", token)
	}
	parts := strings.Split(token, ".")
	if parts[0] != testNonce {
		t.Errorf("nonce %s, want the random bytes in lowercase hex", parts[0])
	}
	if want := strconv.FormatInt(now.Add(15*time.Minute).UnixMilli(), 10); parts[1] != want {
		t.Errorf("expiry %s, want %s", parts[1], want)
	}
	if parts[2] != testDest {
		t.Errorf("destination %s", parts[2])
	}
	kp := must(m.FlowKeypair(testNonce))
	if pub != kp.Address() {
		t.Errorf("mediator key %s, want %s", pub, kp.Address())
	}
	flow, ok := VerifyToken(m, token, now)
	if !ok {
		t.Fatal("freshly minted token does not verify")
	}
	if flow.Nonce != testNonce || flow.Destination != testDest || !flow.Expiry.Equal(now.Add(15*time.Minute)) {
		t.Errorf("flow = %+v", flow)
	}
}

func TestMintInvalidDestination(t *testing.T) {
	m := testMaster(t)
	for _, dest := range []string{
		"",
		mt.Muxed(testDest, 7),
		testSecret,
		strings.ToLower(testDest),
		testDest[:55] + "A", // bad checksum
		" " + testDest,
		testDest + " ",
		"CA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQGAXE", // a contract address
	} {
		_, _, err := m.Mint(bytes.NewReader(make([]byte, 16)), dest, t0)
		var e *errcode.Error
		if !errors.As(err, &e) || e.Code != errcode.InvalidDestination || e.Status() != http.StatusBadRequest {
			t.Errorf("Mint(%q) = %v, want INVALID_DESTINATION", dest, err)
		}
	}
}

func TestMintRandomFailure(t *testing.T) {
	_, _, err := testMaster(t).Mint(bytes.NewReader(make([]byte, 15)), testDest, t0)
	if err == nil {
		t.Fatal("short random read accepted")
	}
	if errcode.CodeOf(err) != "" || errcode.StatusOf(err) != http.StatusInternalServerError {
		t.Errorf("random failure is %q/%d, want an internal error", errcode.CodeOf(err), errcode.StatusOf(err))
	}
}

// TestVerifyTokenChecks breaks one check at a time. Where the token still
// has four parts, its MAC is recomputed over the broken text, so the check
// under test is the only thing standing between it and acceptance.
func TestVerifyTokenChecks(t *testing.T) {
	m := testMaster(t)
	now := t0
	exp := strconv.FormatInt(now.Add(time.Minute).UnixMilli(), 10)
	valid := signed(m, testNonce, exp, testDest)
	mac := valid[strings.LastIndexByte(valid, '.')+1:]

	if _, ok := VerifyToken(m, valid, now); !ok {
		t.Fatal("baseline token rejected")
	}
	for _, tc := range []struct {
		check int
		name  string
		token string
	}{
		// 1: the token is a string. Go's types hold this; the empty string
		// is the nearest thing to "not a token" and dies at check 2.
		{1, "empty", ""},
		{2, "three parts", testNonce + "." + exp + "." + testDest},
		{2, "five parts, the fourth not a memo", valid + ".00"},
		{2, "six parts", valid + ".00.00"},
		{2, "fractional expiry splits", signed(m, testNonce, exp+".5", testDest)},
		{2, "no dots", strings.ReplaceAll(valid, ".", "")},
		{3, "uppercase nonce", signed(m, strings.ToUpper(testNonce), exp, testDest)},
		{3, "31 characters", signed(m, testNonce[:31], exp, testDest)},
		{3, "33 characters", signed(m, testNonce+"0", exp, testDest)},
		{3, "non-hex", signed(m, testNonce[:31]+"g", exp, testDest)},
		{3, "empty nonce", signed(m, "", exp, testDest)},
		{4, "muxed destination", signed(m, testNonce, exp, mt.Muxed(testDest, 1))},
		{4, "seed as destination", signed(m, testNonce, exp, testSecret)},
		{4, "bad checksum", signed(m, testNonce, exp, testDest[:55]+"A")},
		{4, "lowercase destination", signed(m, testNonce, exp, strings.ToLower(testDest))},
		{4, "empty destination", signed(m, testNonce, exp, "")},
		{5, "expired", signed(m, testNonce, strconv.FormatInt(now.UnixMilli()-1, 10), testDest)},
		{5, "expires now", signed(m, testNonce, strconv.FormatInt(now.UnixMilli(), 10), testDest)},
		{5, "zero", signed(m, testNonce, "0", testDest)},
		{5, "negative", signed(m, testNonce, "-"+exp, testDest)},
		{5, "empty expiry", signed(m, testNonce, "", testDest)},
		{5, "NaN", signed(m, testNonce, "NaN", testDest)},
		{5, "Inf", signed(m, testNonce, "Inf", testDest)},
		{5, "+Infinity", signed(m, testNonce, "+Infinity", testDest)},
		{5, "overflow to infinity", signed(m, testNonce, "1e400", testDest)},
		{5, "hex float", signed(m, testNonce, "0x1p60", testDest)},
		{5, "underscores", signed(m, testNonce, "1_"+exp, testDest)},
		{5, "garbage", signed(m, testNonce, "soon", testDest)},
		{5, "space", signed(m, testNonce, " "+exp, testDest)},
		{6, "short MAC", valid[:len(valid)-2]},
		{6, "long MAC", valid + "00"},
		{6, "odd MAC", valid[:len(valid)-1]},
		{6, "non-hex MAC", valid[:len(valid)-2] + "zz"},
		{6, "empty MAC", strings.TrimSuffix(valid, mac)},
		{7, "flipped digit", strings.TrimSuffix(valid, mac) + flipHex(mac)},
		{7, "other master", signed(otherMaster(t), testNonce, exp, testDest)},
		{7, "MAC of another destination", strings.TrimSuffix(valid, mac) + m.TokenMAC(testNonce, exp, otherDest)},
		{7, "flow-key digest as MAC", strings.TrimSuffix(valid, mac) + hex.EncodeToString(m.mac(flowKeyPrefix+testNonce))},
	} {
		t.Run(strconv.Itoa(tc.check)+"/"+tc.name, func(t *testing.T) {
			if flow, ok := VerifyToken(m, tc.token, now); ok || flow != nil {
				t.Fatalf("accepted %q: %+v", tc.token, flow)
			}
		})
	}
}

func TestVerifyTokenAccepts(t *testing.T) {
	m := testMaster(t)
	exp := strconv.FormatInt(t0.Add(time.Minute).UnixMilli(), 10)
	valid := signed(m, testNonce, exp, testDest)
	mac := valid[strings.LastIndexByte(valid, '.')+1:]
	for name, token := range map[string]string{
		"uppercase MAC":  strings.TrimSuffix(valid, mac) + strings.ToUpper(mac),
		"mixed-case MAC": strings.TrimSuffix(valid, mac) + strings.ToUpper(mac[:10]) + mac[10:],
		// Only the master mints, and it writes integers; any finite spelling
		// under a valid MAC still verifies, as SPEC's "finite" check says.
		"exponent expiry": signed(m, testNonce, "19e11", testDest),
		"one ms ahead":    signed(m, testNonce, strconv.FormatInt(t0.UnixMilli()+1, 10), testDest),
	} {
		if _, ok := VerifyToken(m, token, t0); !ok {
			t.Errorf("%s: rejected %q", name, token)
		}
	}
}

// TestVerifyTokenTampering changes one part of a minted token at a time.
func TestVerifyTokenTampering(t *testing.T) {
	m := testMaster(t)
	token, _, err := m.Mint(bytes.NewReader(bytes.Repeat([]byte{7}, 16)), testDest, t0)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(token, ".")
	exp := must(strconv.ParseInt(parts[1], 10, 64))
	replacements := [4][]string{
		{testNonce, strings.Repeat("07", 15) + "08"},
		{strconv.FormatInt(exp+1, 10), strconv.FormatInt(exp-1, 10), "0" + parts[1]},
		{otherDest},
		{flipHex(parts[3]), strings.Repeat("0", 64)},
	}
	for i, alts := range replacements {
		for _, alt := range alts {
			p := append([]string(nil), parts...)
			p[i] = alt
			if _, ok := VerifyToken(m, strings.Join(p, "."), t0); ok {
				t.Errorf("part %d tampered to %q still verifies", i, alt)
			}
		}
	}
	if _, ok := VerifyToken(otherMaster(t), token, t0); ok {
		t.Error("token verifies under another master")
	}
}

// TestTokenExpiry runs in a synctest bubble: the token verifies up to the
// last nanosecond before 15 minutes, and not at or after.
func TestTokenExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := testMaster(t)
		start := time.Now()
		token, _, err := m.Mint(bytes.NewReader(make([]byte, 16)), testDest, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(TokenLifetime - time.Millisecond)
		if _, ok := VerifyToken(m, token, time.Now()); !ok {
			t.Fatal("rejected 1ms before expiry")
		}
		time.Sleep(time.Millisecond - time.Nanosecond)
		if _, ok := VerifyToken(m, token, time.Now()); !ok {
			t.Fatal("rejected 1ns before expiry")
		}
		time.Sleep(time.Nanosecond)
		if got := time.Since(start); got != 15*time.Minute {
			t.Fatalf("clock at %v", got)
		}
		if _, ok := VerifyToken(m, token, time.Now()); ok {
			t.Fatal("accepted at exactly 15 minutes")
		}
		time.Sleep(time.Hour)
		if _, ok := VerifyToken(m, token, time.Now()); ok {
			t.Fatal("accepted after expiry")
		}
	})
}

// TestVerifyTokenConstantTimeCompare reads the source of verifyToken (the
// body of VerifyToken and of SignForward's check of a kept token): the MAC must
// be compared with hmac.Equal (or crypto/subtle), and no other comparison in
// the function may be able to compare MAC bytes, because a comparison that
// stops at the first differing byte lets a caller forge a MAC byte by byte
// from response times. Timing itself cannot be asserted reliably in a test;
// the code that decides it can.
func TestVerifyTokenConstantTimeCompare(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "token.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var fn *ast.FuncDecl
	for _, d := range file.Decls {
		if f, ok := d.(*ast.FuncDecl); ok && f.Recv == nil && f.Name.Name == "verifyToken" {
			fn = f
		}
	}
	if fn == nil {
		t.Fatal("verifyToken not found in token.go")
	}
	constantTime := false
	// A comparison is harmless when one side can only be a length, nil or a
	// literal: none of those can hold MAC bytes.
	harmless := func(e ast.Expr) bool {
		switch e := e.(type) {
		case *ast.BasicLit:
			return true
		case *ast.Ident:
			return e.Name == "nil"
		case *ast.CallExpr:
			id, ok := e.Fun.(*ast.Ident)
			return ok && id.Name == "len"
		}
		return false
	}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, _ := sel.X.(*ast.Ident)
			if pkg == nil {
				return true
			}
			switch pkg.Name + "." + sel.Sel.Name {
			case "hmac.Equal", "subtle.ConstantTimeCompare":
				constantTime = true
			case "bytes.Equal", "bytes.Compare", "strings.EqualFold", "strings.Compare", "reflect.DeepEqual", "slices.Equal":
				t.Errorf("%s: VerifyToken compares with %s.%s, which is not constant-time", fset.Position(n.Pos()), pkg.Name, sel.Sel.Name)
			}
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && !harmless(n.X) && !harmless(n.Y) {
				t.Errorf("%s: VerifyToken compares two values with %s; only lengths, nil and literals may be", fset.Position(n.Pos()), n.Op)
			}
		}
		return true
	})
	if !constantTime {
		t.Error("VerifyToken does not call hmac.Equal or subtle.ConstantTimeCompare")
	}
}
