package ledgertest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
	rpcapi "github.com/closerelay/closerelay/ledgerapi/rpc"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The double's Stellar RPC face (CONTRACT section 15): JSON-RPC 2.0 at
// POST /rpc, over the same in-memory ledger as its Horizon face, so a test
// can run one scenario through either API and compare. Methods: getHealth,
// getNetwork, getLatestLedger, getFeeStats (feestats.go), getLedgerEntries
// (accounts, trustlines, offers and data entries, as core holds them: an AccountEntry's signers
// sorted by key and its master weight in thresholds[0], sponsorship in the
// entry's extension, at most 200 keys), sendTransaction and getTransaction.
//
// sendTransaction validates and applies with the same rules as POST
// /transactions (submit.go): a transaction refused in validation answers
// ERROR with errorResultXdr and changes nothing; one accepted answers
// PENDING, and getTransaction then answers SUCCESS or FAILED (a tx_failed
// applied: fee and sequence number spent) with its resultXdr. A hash the
// double already applied or failed answers DUPLICATE, as RPC answers a
// transaction its core already has. An envelope that does not decode is a
// JSON-RPC error -32602, as RPC answers it.
//
// The gates of the Horizon face apply (SetHeld, SetDelay, SetStalled, and
// SetFailing answering 500), and FailRPC, TryAgainLater and NotFoundFor
// script faults of their own.

// MaxRPCKeys is Stellar RPC's bound on the keys of one getLedgerEntries.
const MaxRPCKeys = 200

// JSON-RPC 2.0 error codes the double answers.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
	rpcNoMethod       = -32601
	rpcInvalidParams  = -32602
	rpcInternal       = -32603
)

// rpcFault is one scripted answer to a call of a method: an HTTP status,
// or with status 0 no answer until the client gives up.
type rpcFault struct {
	method string
	status int
}

// rpcOutcome is what getTransaction answers for a transaction sent through
// the RPC face.
type rpcOutcome struct {
	status    string // SUCCESS or FAILED
	ledger    int32
	envelope  string
	result    string // TransactionResult, base64
	notFound  int    // NOT_FOUND answers left before the outcome
	createdAt int64
}

// FailRPC makes the next n JSON-RPC calls of method answer HTTP status
// (0: no answer until the client gives up, a hang) without reading them.
// Faults queue behind those already scripted for the method.
func (h *Handler) FailRPC(method string, n, status int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for range n {
		h.rpcFaults = append(h.rpcFaults, rpcFault{method: method, status: status})
	}
}

// TryAgainLater makes the next n sendTransaction calls answer
// TRY_AGAIN_LATER, changing nothing.
func (h *Handler) TryAgainLater(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.tryAgainLater += n
}

// NotFoundFor makes every transaction sent from now on answer NOT_FOUND to
// its first n getTransaction calls before its outcome: a ledger that has
// not closed yet.
func (h *Handler) NotFoundFor(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.notFoundFor = n
}

// RPCCalls is the number of JSON-RPC calls of method received so far.
func (h *Handler) RPCCalls(method string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.rpcCalls[method]
}

// RPCURL is the Stellar RPC endpoint of a double served at baseURL.
func RPCURL(baseURL string) string { return strings.TrimRight(baseURL, "/") + "/rpc" }

type rpcRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

func (h *Handler) rpc(w http.ResponseWriter, r *http.Request) {
	var req rpcRequest
	r.Body = http.MaxBytesReader(w, r.Body, maxSubmitBody)
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeRPC(w, rpcResponse{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &rpcError{Code: rpcParseError, Message: "parse error"}})
		return
	}
	h.mu.Lock()
	h.rpcCalls[req.Method]++
	if req.Method == "getLedgerEntries" {
		// The account reads the Horizon face counts at GET /accounts/{id}.
		h.requests++
		h.serving++
		h.peak = max(h.peak, h.serving)
		defer func() {
			h.mu.Lock()
			h.serving--
			h.mu.Unlock()
		}()
	}
	if req.Method == "sendTransaction" {
		h.submissions++
	}
	held := h.held
	var fault *rpcFault
	if i := slices.IndexFunc(h.rpcFaults, func(f rpcFault) bool { return f.method == req.Method }); i >= 0 {
		f := h.rpcFaults[i]
		fault = &f
		h.rpcFaults = slices.Delete(h.rpcFaults, i, i+1)
	}
	failing := h.failing
	h.mu.Unlock()
	if !h.wait(w, r, held) {
		return
	}
	switch {
	case failing:
		http.Error(w, `{"error":"internal"}`, http.StatusInternalServerError)
		return
	case fault != nil && fault.status == 0:
		h.stall(w, r)
		return
	case fault != nil:
		http.Error(w, http.StatusText(fault.status), fault.status)
		return
	}
	resp := rpcResponse{JSONRPC: "2.0", ID: req.ID}
	if req.JSONRPC != "2.0" || len(req.ID) == 0 {
		resp.Error = &rpcError{Code: rpcInvalidRequest, Message: "invalid request"}
		writeRPC(w, resp)
		return
	}
	switch req.Method {
	case "getHealth":
		h.mu.Lock()
		latest := uint32(max(h.lastLedger, 1))
		h.mu.Unlock()
		resp.Result = map[string]any{"status": "healthy", "latestLedger": latest, "oldestLedger": 1, "ledgerRetentionWindow": 17280}
	case "getNetwork":
		h.mu.Lock()
		n := h.network
		h.mu.Unlock()
		resp.Result = map[string]any{"passphrase": n.Passphrase(), "protocolVersion": 23}
	case "getLatestLedger":
		h.mu.Lock()
		latest, closed := h.latest()
		failing := h.latestFailing
		h.mu.Unlock()
		if failing {
			resp.Error = &rpcError{Code: rpcInternal, Message: "internal error"}
			break
		}
		// closeTime as Stellar RPC 23 gives it: Unix seconds, a string.
		resp.Result = map[string]any{"id": hex.EncodeToString(make([]byte, 32)), "protocolVersion": 23, "sequence": latest,
			"closeTime": strconv.FormatInt(closed.Unix(), 10)}
	case "getFeeStats":
		h.mu.Lock()
		if h.feeStatsFailing {
			resp.Error = &rpcError{Code: rpcInternal, Message: "internal error"}
		} else {
			resp.Result = h.rpcFeeStats()
		}
		h.mu.Unlock()
	case "getLedgerEntries":
		resp.Result, resp.Error = h.rpcLedgerEntries(req.Params)
	case "sendTransaction":
		resp.Result, resp.Error = h.rpcSend(req.Params)
	case "getTransaction":
		resp.Result, resp.Error = h.rpcGetTransaction(req.Params)
	default:
		resp.Error = &rpcError{Code: rpcNoMethod, Message: "method not found"}
	}
	writeRPC(w, resp)
}

func writeRPC(w http.ResponseWriter, resp rpcResponse) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}

func invalidParams(msg string) *rpcError { return &rpcError{Code: rpcInvalidParams, Message: msg} }

type rpcEntry struct {
	Key          string `json:"key"`
	XDR          string `json:"xdr"`
	LastModified uint32 `json:"lastModifiedLedgerSeq"`
	Ext          string `json:"extXdr,omitempty"`
}

func (h *Handler) rpcLedgerEntries(params json.RawMessage) (any, *rpcError) {
	var p struct {
		Keys []string `json:"keys"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, invalidParams("params are not {keys}")
	}
	if len(p.Keys) > MaxRPCKeys {
		return nil, invalidParams("key count exceeds maximum supported (200)")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	entries := []rpcEntry{}
	for _, k := range p.Keys {
		var key xdr.LedgerKey
		if err := xdr.SafeUnmarshalBase64(k, &key); err != nil {
			return nil, invalidParams("cannot unmarshal key value")
		}
		e, ok := h.entry(key)
		if !ok {
			continue
		}
		data, err1 := xdr.MarshalBase64(e.Data)
		ext, err2 := xdr.MarshalBase64(e.Ext)
		if err1 != nil || err2 != nil {
			return nil, &rpcError{Code: -32603, Message: "cannot marshal entry"}
		}
		entries = append(entries, rpcEntry{Key: k, XDR: data, LastModified: uint32(e.LastModifiedLedgerSeq), Ext: ext})
	}
	return map[string]any{"entries": entries, "latestLedger": uint32(max(h.lastLedger, 1))}, nil
}

// entry is the ledger entry key names, as core holds it. h.mu is held.
func (h *Handler) entry(key xdr.LedgerKey) (xdr.LedgerEntry, bool) {
	switch key.Type {
	case xdr.LedgerEntryTypeAccount:
		a := h.accounts[key.Account.AccountId.Address()]
		if a == nil {
			return xdr.LedgerEntry{}, false
		}
		return a.accountEntry(), true
	case xdr.LedgerEntryTypeTrustline:
		a := h.accounts[key.TrustLine.AccountId.Address()]
		if a == nil {
			return xdr.LedgerEntry{}, false
		}
		for _, tl := range a.trustlines {
			if tl.key().Equals(key.TrustLine.Asset) {
				return a.trustlineEntry(tl), true
			}
		}
	case xdr.LedgerEntryTypeOffer:
		a := h.accounts[key.Offer.SellerId.Address()]
		if a == nil {
			return xdr.LedgerEntry{}, false
		}
		if _, o := a.offer(int64(key.Offer.OfferId)); o != nil {
			return offerEntry(o), true
		}
	case xdr.LedgerEntryTypeData:
		a := h.accounts[key.Data.AccountId.Address()]
		if a == nil {
			return xdr.LedgerEntry{}, false
		}
		name := string(key.Data.DataName)
		if d, ok := a.data[name]; ok {
			return xdr.LedgerEntry{
				LastModifiedLedgerSeq: xdr.Uint32(max(a.modified, 1)),
				Data: xdr.LedgerEntryData{Type: xdr.LedgerEntryTypeData, Data: &xdr.DataEntry{
					AccountId: xdr.MustAddress(a.id), DataName: xdr.String64(name), DataValue: xdr.DataValue(d.value),
				}},
				Ext: sponsorExt(d.sponsor),
			}, true
		}
	case xdr.LedgerEntryTypeClaimableBalance:
		id, err := xdr.MarshalHex(key.ClaimableBalance.BalanceId)
		if c := h.claimables[id]; err == nil && c != nil {
			return c.entry(), true
		}
	}
	return xdr.LedgerEntry{}, false
}

// sponsorExt is a ledger entry's extension naming sponsor, if any.
func sponsorExt(sponsor string) xdr.LedgerEntryExt {
	if sponsor == "" {
		return xdr.LedgerEntryExt{}
	}
	id := xdr.MustAddress(sponsor)
	return xdr.LedgerEntryExt{V: 1, V1: &xdr.LedgerEntryExtensionV1{SponsoringId: &id}}
}

// accountEntry is a as core's AccountEntry: the master weight in
// thresholds[0], the other signers sorted by key (core keeps them so), the
// native liabilities and the sponsorship counters in the extensions.
func (a *account) accountEntry() xdr.LedgerEntry {
	type keyed struct {
		raw []byte
		s   xdr.Signer
		by  string
	}
	var signers []keyed
	for _, s := range a.signers {
		var k xdr.SignerKey
		if err := k.SetAddress(s.key); err != nil {
			continue
		}
		raw, _ := k.MarshalBinary()
		signers = append(signers, keyed{raw: raw, s: xdr.Signer{Key: k, Weight: xdr.Uint32(s.weight)}, by: s.sponsor})
	}
	slices.SortFunc(signers, func(x, y keyed) int { return bytes.Compare(x.raw, y.raw) })
	entry := xdr.AccountEntry{
		AccountId:     xdr.MustAddress(a.id),
		Balance:       xdr.Int64(a.balance),
		SeqNum:        xdr.SequenceNumber(a.seq),
		NumSubEntries: xdr.Uint32(a.numSubEntries()),
		Flags:         xdr.Uint32(a.flags),
		HomeDomain:    xdr.String32(a.homeDomain),
		Thresholds:    xdr.Thresholds{a.masterWeight, a.low, a.med, a.high},
	}
	var ids []xdr.SponsorshipDescriptor
	for _, s := range signers {
		entry.Signers = append(entry.Signers, s.s)
		var d xdr.SponsorshipDescriptor
		if s.by != "" {
			id := xdr.MustAddress(s.by)
			d = &id
		}
		ids = append(ids, d)
	}
	buying, selling := a.nativeLiabilities()
	entry.Ext = xdr.AccountEntryExt{V: 1, V1: &xdr.AccountEntryExtensionV1{
		Liabilities: xdr.Liabilities{Buying: xdr.Int64(buying), Selling: xdr.Int64(selling)},
		Ext: xdr.AccountEntryExtensionV1Ext{V: 2, V2: &xdr.AccountEntryExtensionV2{
			NumSponsored: xdr.Uint32(a.numSponsored), NumSponsoring: xdr.Uint32(a.numSponsor), SignerSponsoringIDs: ids,
		}},
	}}
	if a.seqLedger != 0 || a.seqTime != 0 {
		entry.Ext.V1.Ext.V2.Ext = xdr.AccountEntryExtensionV2Ext{V: 3, V3: &xdr.AccountEntryExtensionV3{
			SeqLedger: xdr.Uint32(a.seqLedger), SeqTime: xdr.TimePoint(a.seqTime),
		}}
	}
	return xdr.LedgerEntry{
		LastModifiedLedgerSeq: xdr.Uint32(max(a.modified, 1)),
		Data:                  xdr.LedgerEntryData{Type: xdr.LedgerEntryTypeAccount, Account: &entry},
		Ext:                   sponsorExt(a.sponsor),
	}
}

// key is the trustline's asset as its ledger key names it.
func (tl *trustline) key() xdr.TrustLineAsset {
	if tl.pool != nil {
		id := tl.pool.id
		return xdr.TrustLineAsset{Type: xdr.AssetTypeAssetTypePoolShare, LiquidityPoolId: &id}
	}
	return tl.asset.ToTrustLineAsset()
}

func (a *account) trustlineEntry(tl *trustline) xdr.LedgerEntry {
	e := xdr.TrustLineEntry{
		AccountId: xdr.MustAddress(a.id), Asset: tl.key(),
		Balance: xdr.Int64(tl.balance), Limit: xdr.Int64(tl.limit), Flags: xdr.Uint32(tl.flags),
	}
	if tl.pool == nil {
		buying, selling := a.lineLiabilities(tl.asset)
		e.Ext = xdr.TrustLineEntryExt{V: 1, V1: &xdr.TrustLineEntryV1{
			Liabilities: xdr.Liabilities{Buying: xdr.Int64(buying), Selling: xdr.Int64(selling)},
			Ext: xdr.TrustLineEntryV1Ext{V: 2, V2: &xdr.TrustLineEntryExtensionV2{
				LiquidityPoolUseCount: xdr.Int32(a.poolUseCount(tl.asset)),
			}},
		}}
	}
	return xdr.LedgerEntry{
		LastModifiedLedgerSeq: xdr.Uint32(max(tl.modified, 1)),
		Data:                  xdr.LedgerEntryData{Type: xdr.LedgerEntryTypeTrustline, TrustLine: &e},
		Ext:                   sponsorExt(tl.sponsor),
	}
}

func offerEntry(o *offer) xdr.LedgerEntry {
	return xdr.LedgerEntry{
		LastModifiedLedgerSeq: xdr.Uint32(max(o.modified, 1)),
		Data: xdr.LedgerEntryData{Type: xdr.LedgerEntryTypeOffer, Offer: &xdr.OfferEntry{
			SellerId: xdr.MustAddress(o.seller), OfferId: xdr.Int64(o.id),
			Selling: o.selling, Buying: o.buying, Amount: xdr.Int64(o.amount), Price: o.price,
		}},
		Ext: sponsorExt(o.sponsor),
	}
}

func (h *Handler) rpcSend(params json.RawMessage) (any, *rpcError) {
	var p struct {
		Transaction string `json:"transaction"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, invalidParams("params are not {transaction}")
	}
	env, err := ledger.DecodeEnvelope(p.Transaction)
	if err != nil {
		return nil, invalidParams("invalid_xdr")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	sum, err := ledger.HashEnvelope(env, h.network.Passphrase())
	if err != nil {
		return nil, invalidParams("invalid_xdr")
	}
	hash := hex.EncodeToString(sum[:])
	answer := func(status string) map[string]any {
		return map[string]any{"status": status, "hash": hash, "latestLedger": uint32(max(h.lastLedger, 1)),
			"latestLedgerCloseTime": "0"}
	}
	if h.tryAgainLater > 0 {
		h.tryAgainLater--
		return answer("TRY_AGAIN_LATER"), nil
	}
	if _, ok := h.rpcTxs[sum]; ok {
		return answer("DUPLICATE"), nil
	}
	if _, ok := h.applied[sum]; ok {
		return answer("DUPLICATE"), nil
	}
	tx, refusal, _ := h.apply(p.Transaction, env)
	out := &rpcOutcome{envelope: p.Transaction, notFound: h.notFoundFor, ledger: h.lastLedger, createdAt: h.now().Unix()}
	switch _, failedApplied := h.failed[sum]; {
	case refusal == nil:
		out.status, out.result = "SUCCESS", tx.ResultXdr
	case failedApplied:
		out.status = "FAILED"
		out.result, _ = refusal.Extras["result_xdr"].(string)
	default:
		// Refused in validation: nothing changed, and core says why.
		a := answer("ERROR")
		if s, ok := refusal.Extras["result_xdr"].(string); ok {
			a["errorResultXdr"] = s
		}
		return a, nil
	}
	h.rpcTxs[sum] = out
	return answer("PENDING"), nil
}

func (h *Handler) rpcGetTransaction(params json.RawMessage) (any, *rpcError) {
	var p struct {
		Hash string `json:"hash"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil, invalidParams("params are not {hash}")
	}
	raw, err := hex.DecodeString(p.Hash)
	if err != nil || len(raw) != 32 {
		return nil, invalidParams("invalid hash")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	latest := uint32(max(h.lastLedger, 1))
	base := map[string]any{"latestLedger": latest, "latestLedgerCloseTime": "0", "oldestLedger": 1, "oldestLedgerCloseTime": "0", "txHash": p.Hash}
	out := h.rpcTxs[[32]byte(raw)]
	if out == nil {
		// A transaction applied through the Horizon face is found too.
		if tx, ok := h.applied[[32]byte(raw)]; ok {
			out = &rpcOutcome{status: "SUCCESS", ledger: tx.Ledger, envelope: tx.EnvelopeXdr, result: tx.ResultXdr}
		}
	}
	if out == nil || out.notFound > 0 {
		if out != nil {
			out.notFound--
		}
		base["status"] = "NOT_FOUND"
		return base, nil
	}
	base["status"] = out.status
	base["ledger"] = uint32(out.ledger)
	base["envelopeXdr"] = out.envelope
	base["resultXdr"] = out.result
	base["applicationOrder"] = 1
	base["createdAt"] = time.Unix(out.createdAt, 0).Unix()
	return base, nil
}

// RPCBackends are Stellar RPC backends reading every network from h through
// h.Transport, with no listener: the analog of Backends for tests of the
// RPC backend, under testing/synctest too.
func (h *Handler) RPCBackends() map[ledger.Network]ledgerapi.Backend {
	return rpcBackends(RPCURL(inProcessURL), h.Transport())
}

// InProcessRPCClient is InProcessClient through the Stellar RPC face.
func InProcessRPCClient(h *Handler, timeout time.Duration) *ledgerapi.Client {
	return ledgerapi.New(ledgerapi.Options{Backends: h.RPCBackends(), Timeout: timeout})
}

// RPCURLs maps every network to this double's Stellar RPC endpoint, the
// shape RPC_URL_* take.
func (s *Server) RPCURLs() map[ledger.Network]string {
	u := RPCURL(s.URL)
	return map[ledger.Network]string{ledger.Mainnet: u, ledger.Testnet: u, ledger.Futurenet: u}
}

// RPCBackends are Stellar RPC backends reading every network from this
// double over its listener.
func (s *Server) RPCBackends() map[ledger.Network]ledgerapi.Backend {
	return rpcBackends(RPCURL(s.URL), nil)
}

func rpcBackends(endpoint string, rt http.RoundTripper) map[ledger.Network]ledgerapi.Backend {
	urls := map[ledger.Network]string{ledger.Mainnet: endpoint, ledger.Testnet: endpoint, ledger.Futurenet: endpoint}
	return rpcapi.Backends(urls, rt)
}
