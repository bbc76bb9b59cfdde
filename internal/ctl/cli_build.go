package ctl

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/closerelay/closerelay/ledgerapi/horizon"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// The relay ends a plan 60 seconds before its transaction's maxTime (SPEC
// "Plan", expiry: the grace kept for the submission), so a time bound of
// --valid-for leaves --valid-for less that grace to collect signatures;
// build refuses one that leaves less than minSigningWindow.
const (
	relayGrace       = 60 * time.Second
	minSigningWindow = 4 * time.Minute
	minValidFor      = relayGrace + minSigningWindow
)

// buildOptions are build's settings once its flags are parsed.
type buildOptions struct {
	account, destination, network string
	horizonURL                    string
	rpcURL                        string // with horizonURL: the preflight reads through Stellar RPC
	sequence                      int64  // < 0: read from horizonURL
	validFor                      time.Duration
	mediator, token               string
	sign                          bool
	yes                           bool // --sign at a terminal: sign without asking
	secretEnv                     string
	timeout                       time.Duration
	assets                        string  // what to do with non-native balances (wallet.AssetDisposal)
	maxFee                        int64   // the most stroops per operation build bids
	memoIn                        string  // --memo as given
	memoGiven                     bool    // --memo was given, even empty
	force                         bool    // a direct close into a memo-required account with --memo; a multisig close under a token without a memo; a sale the order book does not vouch for
	claim                         bool    // claim the native claimable balances claimable now
	slippage                      float64 // --assets sell: the percentage a sale may fall short of its quote
	maxLoss                       float64 // --assets sell: the percentage a quote may fall short of the balance at the best bid
}

// built is a close build made, with what the account API said of the account.
type built struct {
	tx       *txnbuild.Transaction
	xdr      string
	hash     string
	mergeTo  string
	flow     *wallet.MediatorFlow
	memo     wallet.Memo       // on the transaction: a direct close's --memo
	acct     *wallet.Account   // nil when --sequence was given without --horizon-url
	signer   *keypair.Full     // nil unless --sign
	progress wallet.Progress   // meaningful when acct and signer are set
	steps    []string          // what each operation does, in words
	fee      int64             // the fee per operation bid, in stroops
	feeNote  string            // why it is not from the fee statistics, when it is not
	check    *ledger.Preflight // the preflight's verdict; nil when built offline
	notes    []string          // the claimable balances the close leaves, and why
}

func (c *CLI) build(args []string) int {
	fs := NewFlagSet("build", "build [flags]",
		"Build the transaction that closes --account into --destination, valid for\n"+
			"--valid-for (72h, the relay's signing window). With an account API it empties\n"+
			"the account first, in the same transaction: it cancels every offer, sends,\n"+
			"returns or sells (--assets) every other balance, removes every trustline and\n"+
			"data entry, then merges; and it runs the preflight (will the ledger take the\n"+
			"close?): a close it finds blocked exits 1 and writes nothing on standard\n"+
			"output (see --force).\n\n"+
			"The account's sequence number, signers, weights and high threshold are read\n"+
			"from the account API (--horizon-url or $"+EnvHorizon+"; never from the\n"+
			"relay), and the threshold check is printed on standard error: every signer with its\n"+
			"weight, and whether the signer of --sign meets the threshold alone. With\n"+
			"--sequence and no account API the close is built offline, unchecked.\n\n"+
			"With --mediator and --token (from `closerelayctl mediator mint DESTINATION`)\n"+
			"it builds the mediator plan instead: create_account funding the mediator with\n"+
			"2 XLM first, then the merge into the mediator, whose forward then pays\n"+
			"DESTINATION with the memo (`closerelayctl mediator forward`).\n\n"+
			"With --memo the close carries the memo on its transaction. A direct close into\n"+
			"an account that requires a memo (SEP-29) is refused unless built through a\n"+
			"mediator, or with --memo and --force: it pays by account_merge, which exchanges\n"+
			"credit inconsistently even with a memo. A multisig close through a mediator\n"+
			"needs a token minted with --memo (the relay then runs the forward), or --force.\n\n"+
			"With --assets sell each balance is sold for XLM by the best path the account\n"+
			"API quotes (/paths/strict-send), less --slippage, every asset of the path named.\n"+
			"The quote is checked against the order book's best bid in XLM (/order_book): a\n"+
			"quote more than --max-loss (5 %) below the balance at that bid, or for an asset\n"+
			"nobody bids XLM for, is refused (exit 1) unless --force.\n\n"+
			"With --sign the close is signed with the secret from $"+EnvSecret+" (or\n"+
			"standard input, typed without echo at a terminal); when standard input is a\n"+
			"terminal, what the close does is printed first, operation by operation, and\n"+
			"it is signed only once you confirm, unless --yes. Standard output carries\n"+
			"only the base64 XDR (with --json, one JSON object), so it pipes into publish:\n"+
			"  closerelayctl build --account G… --destination G… --sign | closerelayctl publish -\n"+
			"A close the preflight says the ledger would refuse (blocked) is reported on\n"+
			"standard error (--json: the object, there) and nothing is written on standard\n"+
			"output (exit 1), unless --force.\n"+
			"With --rpc-url beside --horizon-url, the preflight reads through Stellar RPC, as a\n"+
			"relay with LEDGER_API=rpc does (Horizon still lists what the account holds).\n"+
			"Nothing is sent anywhere but to the account API; nothing is submitted.")
	var o buildOptions
	jsonOut := new(bool)
	JSONFlag(fs, jsonOut)
	fs.StringVar(&o.account, "account", "", "the `G…` account to close (required)")
	fs.StringVar(&o.destination, "destination", "", "the `G…` account that receives its funds (required; with --mediator, the flow's destination)")
	network := c.networkFlag(fs)
	horizonURL := c.HorizonFlag(fs, "to read the account from")
	rpcURL := c.RPCFlag(fs, "for the preflight's reads, beside --horizon-url (alone it is refused: see --help)")
	fs.Int64Var(&o.sequence, "sequence", -1, "the account's current sequence number, to build without an account API (unchecked)")
	fs.DurationVar(&o.validFor, "valid-for", wallet.RelayTimeout, "time bound of the transaction: at least 5m (the relay keeps 60s of it to submit), at most 72h")
	fs.StringVar(&o.mediator, "mediator", "", "build a mediator plan: the flow's mediator public key `G…` (with --token)")
	fs.StringVar(&o.token, "token", "", "the mediator flow token (with --mediator)")
	fs.BoolVar(&o.sign, "sign", false, "sign with the secret from $"+EnvSecret+" (or standard input)")
	secretEnv := secretEnvFlag(fs)
	fs.BoolVar(&o.yes, "yes", false, "with --sign at a terminal: sign without asking, after printing what the close does")
	fs.DurationVar(&o.timeout, "timeout", 30*time.Second, "give up reading the account API after this long (0: never)")
	fs.StringVar(&o.assets, "assets", string(wallet.AssetsSend), "what the close does with each non-native balance: `send` it to the destination, return it to its issuer, or sell it (send|return|sell)")
	fs.Int64Var(&o.maxFee, "max-fee", DefaultMaxFee, "the most stroops per operation to bid: the fee is the 90th percentile of the fees the last ledgers charged, capped by this")
	memoIn := memoFlag(fs, "a direct close's memo, on its transaction: `text:…|id:…|hash:…|return:…` (hash and return: 64 hex digits); not with --mediator")
	fs.BoolVar(&o.force, "force", false, "build anyway a direct close with --memo into an account that requires a memo (SEP-29), a multisig close through a mediator whose token commits no memo, or (--assets sell) a sale the order book does not vouch for; and write on standard output a close the preflight says the ledger would refuse (exit 1 all the same)")
	fs.BoolVar(&o.claim, "claim", false, "claim, before the merge, the native claimable balances the account can claim until the close's time bound ends")
	fs.Float64Var(&o.slippage, "slippage", float64(wallet.DefaultSlippage)/100, "with --assets sell: the `percent` a sale may fetch less XLM than the account API's best path quotes")
	fs.Float64Var(&o.maxLoss, "max-loss", float64(wallet.DefaultMaxLoss)/100, "with --assets sell: the `percent` a path's quote may fall below the balance at the order book's best bid in XLM; a worse sale, or one nobody bids for, is refused unless --force")
	if _, code, done := c.Parse(fs, args, 0, ""); done {
		return code
	}
	o.network, o.horizonURL, o.rpcURL, o.secretEnv = *network, *horizonURL, *rpcURL, *secretEnv
	o.memoIn, o.memoGiven = *memoIn, *memoIn != "" || flagGiven(fs, "memo")
	if *rpcURL != "" && o.horizonURL == "" {
		// Emptying the account needs its whole listing, which only an
		// account API that lists trustlines, offers and data gives.
		return c.Fail("build", *jsonOut, Usagef("build needs an account API that lists the account's trustlines, offers and data entries (--horizon-url): Stellar RPC (--rpc-url) reads ledger entries by key only, so it cannot say what the account holds; beside --horizon-url, it carries the preflight's reads"))
	}

	ctx := context.Background()
	if o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.timeout)
		defer cancel()
	}
	b, err := c.runBuild(ctx, o)
	if err != nil {
		return c.Fail("build", *jsonOut, err)
	}
	// A close the ledger would refuse is shown, to be looked at, but not
	// written on standard output unless --force (CONTRACT 18), so that
	// `build | publish -` never publishes it; the exit status says so too.
	blocked := b.check != nil && b.check.State == ledger.PreflightBlocked
	if blocked && !o.force {
		if *jsonOut {
			m := b.json(o)
			m["ok"], m["code"] = false, "BLOCKED"
			c.printJSONTo(c.Stderr, m)
		} else {
			b.report(c.Stderr, o)
			fmt.Fprintf(c.Stderr, "%s build: the ledger would refuse this close (%s): its XDR is not written on standard output, so nothing is published; --force writes it all the same\n", c.Name(), strings.Join(b.blockerCodes(), ", "))
		}
		return ExitRefused
	}
	code := ExitOK
	if blocked {
		code = ExitRefused
	}
	// The report goes to standard error with --json too: a person who
	// pipes the JSON on still sees what the close does and the verdict.
	b.report(c.Stderr, o)
	if *jsonOut {
		c.PrintJSON(b.json(o))
		return code
	}
	fmt.Fprintln(c.Stdout, b.xdr)
	return code
}

// readTimeout bounds each account API read by --timeout (0: never, an
// hour standing for it).
func readTimeout(timeout time.Duration) time.Duration {
	if timeout <= 0 {
		return time.Hour
	}
	return timeout
}

// blockerCodes are the codes of the preflight's blockers, in order.
func (b *built) blockerCodes() []string {
	codes := make([]string, len(b.check.Blockers))
	for i, bl := range b.check.Blockers {
		codes[i] = bl.Code
	}
	return codes
}

// ledgerState reads, through the account API, what the clean-up and the
// preflight need: the account with its offers, and the account its funds
// go to (a mediator not created yet reads as absent).
func (c *CLI) ledgerState(ctx context.Context, o buildOptions, mergeTo string) (ledger.LedgerState, error) {
	n := ledger.Network(o.network)
	api := ledgerapi.New(ledgerapi.Options{
		Backends: horizon.Backends(map[ledger.Network]string{n: o.horizonURL}, c.Transport),
		Timeout:  readTimeout(o.timeout),
	})
	st, err := api.State(ctx, n, o.account, []string{mergeTo})
	if err != nil {
		return ledger.LedgerState{}, err
	}
	if why := st.Accounts[o.account].Incomplete; why != "" {
		return ledger.LedgerState{}, fmt.Errorf("the account API's answer cannot be used: %s", why)
	}
	return st, nil
}

func (c *CLI) runBuild(ctx context.Context, o buildOptions) (*built, error) {
	passphrase, err := wallet.Passphrase(o.network)
	if err != nil {
		return nil, Usagef("--network: %v", err)
	}
	switch {
	case o.account == "" || o.destination == "":
		return nil, Usagef("--account and --destination are required")
	case !strkey.IsValidEd25519PublicKey(o.account) || !strkey.IsValidEd25519PublicKey(o.destination):
		return nil, Usagef("--account and --destination must be G… public keys")
	case o.validFor < minValidFor:
		window := max(o.validFor-relayGrace, 0)
		return nil, Usagef("--valid-for %s leaves %s to sign: the relay ends a plan %s before its transaction's time bound (the grace it keeps to submit), so give at least %s (%s to collect signatures)",
			o.validFor, window, relayGrace, minValidFor, minSigningWindow)
	case o.validFor > wallet.RelayTimeout:
		return nil, Usagef("--valid-for must be at most %s (the relay's signing window)", wallet.RelayTimeout)
	case (o.mediator == "") != (o.token == ""):
		// SPEC item 3: a mediator plan needs both the key and the token.
		return nil, Usagef("a mediator plan needs both --mediator and --token (from closerelayctl mediator mint)")
	case o.memoGiven && (o.mediator != "" || o.token != ""):
		// The close merges into the mediator; the memo rides on the
		// forward, which carries the one the flow token commits to.
		return nil, Usagef("--memo goes on a direct close only: through a mediator the memo belongs in the flow token (closerelayctl mediator mint --memo …), and the forward carries it")
	case math.IsNaN(o.slippage) || o.slippage < 0 || o.slippage >= 100:
		return nil, Usagef("--slippage must be a percentage from 0 up to (not including) 100")
	case math.IsNaN(o.maxLoss) || o.maxLoss < 0 || o.maxLoss >= 100:
		return nil, Usagef("--max-loss must be a percentage from 0 up to (not including) 100")
	case o.sequence < 0 && o.horizonURL == "":
		return nil, Usagef("give --horizon-url (or set %s) to read the account's sequence number and signers, or --sequence to build offline", EnvHorizon)
	}
	b := &built{mergeTo: o.destination}
	var txMemo txnbuild.Memo
	if o.memoGiven {
		if b.memo, err = parseMemoFlag("--memo", o.memoIn); err != nil {
			return nil, err
		}
		if txMemo, err = b.memo.Txn(); err != nil {
			return nil, Usagef("--memo: %s", Message(err))
		}
	}
	if o.token != "" {
		flow, err := wallet.NewMediatorFlow(client.Flow{FlowToken: o.token, MediatorPublicKey: o.mediator}, o.destination)
		if err != nil {
			return nil, Usagef("%v", err)
		}
		if !flow.Expiry.After(time.Now()) {
			return nil, &RefusedError{fmt.Errorf("the flow token expired at %s: mint a new flow", flow.Expiry.UTC().Format(time.RFC3339))}
		}
		b.flow, b.mergeTo = &flow, flow.MediatorPublicKey
	}
	if o.sign {
		if b.signer, err = c.readSecret(o.secretEnv); err != nil {
			return nil, err
		}
	}
	seq := o.sequence
	if o.horizonURL != "" {
		acct, err := c.Horizon(o.horizonURL).Account(ctx, o.account)
		if errors.Is(err, wallet.ErrAccountNotFound) {
			return nil, &RefusedError{fmt.Errorf("%w on %s: it does not exist there, or is already closed", err, o.network)}
		}
		if err != nil {
			return nil, err
		}
		b.acct = &acct
		if seq < 0 {
			seq = acct.Sequence
		}
	}
	var prelude []txnbuild.Operation
	var state ledger.LedgerState
	if o.horizonURL != "" {
		if state, err = c.ledgerState(ctx, o, b.mergeTo); err != nil {
			return nil, err
		}
		reserved := 1 // the merge
		if b.flow != nil {
			reserved++ // the mediator's creation
		}
		params := wallet.CleanUpParams{
			Account: o.account, Destination: b.mergeTo, State: state, Assets: wallet.AssetDisposal(o.assets),
			Mediator: b.flow != nil, HasMemo: txMemo != nil, Force: o.force, Reserved: reserved, Claim: o.claim,
			MaxLoss: int64(math.Round(o.maxLoss * 100)),
		}
		if err := c.readClaimable(ctx, o, b, &params); err != nil {
			return nil, err
		}
		if err := c.readQuotes(ctx, o, &params); err != nil {
			return nil, err
		}
		prelude, err = wallet.CleanUp(params)
		var refusal *wallet.Refusal
		if errors.As(err, &refusal) {
			return nil, &RefusedError{refusal}
		}
		if err != nil {
			return nil, Usagef("%v", err)
		}
	}
	if o.maxFee < minFee {
		return nil, Usagef("--max-fee must be at least %d stroops, the network's minimum per operation", minFee)
	}
	b.fee = minFee
	if o.horizonURL != "" {
		b.fee, b.feeNote = c.operationFee(ctx, o.horizonURL, o.maxFee)
	}
	batches, err := wallet.BuildClose(wallet.CloseParams{
		Account: o.account, Sequence: seq, Destination: o.destination, Flow: b.flow, Timeout: o.validFor, Prelude: prelude,
		Memo: txMemo, BaseFee: b.fee,
	})
	if err != nil {
		return nil, Usagef("%v", err)
	}
	if len(batches) != 1 {
		return nil, &RefusedError{fmt.Errorf("the close needs %d transactions; the relay plans one", len(batches))}
	}
	b.tx = batches[0]
	env := b.tx.ToXDR()
	for _, op := range env.Operations() {
		b.steps = append(b.steps, ledger.Describe(op, env.SourceAccount()))
	}
	if o.horizonURL != "" {
		// The relay's own preflight, its reads included (the claimable
		// balances the close claims, read by id), through the ledger API
		// a relay would use: Stellar RPC with --rpc-url, else Horizon.
		api, err := c.ledgerAPI(ledger.Network(o.network), o.horizonURL, o.rpcURL, readTimeout(o.timeout))
		if err != nil {
			return nil, err
		}
		v := api.Preflight(ctx, ledger.Network(o.network), o.account, env, nil, time.Now()).Preflight
		b.check = &v
	}
	if b.signer != nil {
		if b.acct != nil && signerWeight(*b.acct, b.signer.Address()) == 0 {
			return nil, &RefusedError{fmt.Errorf("%s is not a signer of %s: the relay would refuse the close (UNSIGNED)", b.signer.Address(), o.account)}
		}
		// Never sign, for a person at a terminal, what they have not seen
		// (issue 39): the close is shown and confirmed first, as sign does.
		// A blocked close is not written without --force, so it is not asked.
		blocked := b.check != nil && b.check.State == ledger.PreflightBlocked
		if !o.yes && c.interactive() && (!blocked || o.force) {
			if err := c.confirmSign(b, o); err != nil {
				return nil, err
			}
		}
		if b.tx, err = b.tx.Sign(passphrase, b.signer); err != nil {
			return nil, fmt.Errorf("sign: %w", err)
		}
	}
	if b.xdr, err = b.tx.Base64(); err != nil {
		return nil, err
	}
	if b.hash, err = b.tx.HashHex(passphrase); err != nil {
		return nil, err
	}
	if b.acct != nil {
		if b.progress, err = wallet.Weigh(b.xdr, o.network, *b.acct); err != nil {
			return nil, err
		}
	}
	if err := b.strandable(o); err != nil {
		return nil, err
	}
	return b, nil
}

// confirmSign prints what the close does, operation by operation, with
// the preflight's verdict, and asks on the terminal whether to sign it; an
// answer other than y or yes refuses.
func (c *CLI) confirmSign(b *built, o buildOptions) error {
	fmt.Fprintf(c.Stderr, "the close of %s on %s into %s, to be signed by %s:\n", o.account, o.network, b.mergeTo, b.signer.Address())
	for i, step := range b.steps {
		fmt.Fprintf(c.Stderr, "  %d. %s\n", i+1, step)
	}
	if b.check != nil {
		fmt.Fprintf(c.Stderr, "  preflight: %s\n", b.check.State)
		for _, bl := range b.check.Blockers {
			fmt.Fprintf(c.Stderr, "    %s: %s\n", bl.Code, bl.Reason)
		}
	}
	fmt.Fprint(c.Stderr, "sign it? [y/N] ")
	answer, _ := bufio.NewReader(c.Stdin).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
		return &RefusedError{errors.New("not signed: you did not confirm")}
	}
	return nil
}

// strandable refuses, without --force, a close through a mediator under a
// token that commits no memo unless the --sign key closes the account
// alone (issue 24). Co-signers may sign it hours after its 15-minute token
// has expired; the close then merges into the mediator and nobody can
// co-sign the forward, so the funds wait there. Under a memo-committed
// token the relay runs the forward itself (CONTRACT 16).
func (b *built) strandable(o buildOptions) error {
	if b.flow == nil || !b.flow.Memo.IsZero() || o.force {
		return nil
	}
	var why string
	switch {
	case b.signer == nil:
		why = "it is unsigned (no --sign), so its signatures come later"
	case b.acct == nil:
		why = "its signers were not read (built offline), so it may need more signatures than --sign's"
	case b.progress.Met():
		return nil
	default:
		why = fmt.Sprintf("the --sign key's weight %d does not meet the high threshold %d alone, so other signers sign it later", b.progress.Weight, b.progress.Needed)
	}
	expiry := b.flow.Expiry.UTC().Format(time.RFC3339)
	return &RefusedError{fmt.Errorf("the close goes through the mediator %s under a flow token that commits no memo, and %s: "+
		"if the last signature comes after the token expires at %s, the close merges the account into the mediator and nobody can co-sign the forward, so the funds wait there. "+
		"Mint a memo-committed token (closerelayctl mediator mint --memo text:…|id:…|hash:…|return:… %s) and publish the close with it and --submit, so the relay runs the forward itself; "+
		"or add --force to build it anyway", b.flow.MediatorPublicKey, why, expiry, b.flow.Destination)}
}

// readClaimable reads the claimable balances waiting for the account: the
// native ones it can claim until the close's time bound ends go into p
// (claimed with --claim), the others into b's notes with why they stay.
// Without --claim, an account API that cannot list them leaves a note;
// with it, the close is not built.
func (c *CLI) readClaimable(ctx context.Context, o buildOptions, b *built, p *wallet.CleanUpParams) error {
	recs, complete, err := c.Horizon(o.horizonURL).ClaimableBalances(ctx, o.account)
	if err != nil {
		if o.claim || ctx.Err() != nil {
			return err
		}
		b.notes = append(b.notes, fmt.Sprintf("the account's claimable balances were not read (%s): a close claims none without --claim anyway", Message(err)))
		return nil
	}
	if !complete && o.claim {
		return &RefusedError{fmt.Errorf("more than %d claimable balances wait for the account: claim some in earlier transactions, or close without --claim", wallet.MaxClaimableRead)}
	}
	now := time.Now()
	claim, left, err := wallet.SortClaimable(recs, o.account, now, now.Add(o.validFor))
	if err != nil {
		return fmt.Errorf("the account API's answer cannot be used: %w", err)
	}
	p.Claimable = claim
	if !o.claim && len(claim) > 0 {
		var sum int64
		for _, cb := range claim {
			sum += cb.Amount
		}
		b.notes = append(b.notes, fmt.Sprintf("native claimable balances the account can claim, not claimed: %d, %s XLM in all; "+
			"after the merge they stay on the ledger, claimable by their other claimants, or by this key only if the account is created again; "+
			"--claim claims them into the close", len(claim), amount.StringFromInt64(sum)))
	}
	for _, u := range left {
		name := u.Asset
		if u.Native {
			name = "XLM"
		}
		b.notes = append(b.notes, fmt.Sprintf("claimable balance %s (%s %s) is not claimed: %s", u.ID, u.Amount, name, u.Why))
	}
	if !complete {
		b.notes = append(b.notes, fmt.Sprintf("more than %d claimable balances wait for the account; only the first %d were read", wallet.MaxClaimableRead, wallet.MaxClaimableRead))
	}
	return nil
}

// readQuotes reads, for --assets sell, the best path selling each balance
// for XLM, less --slippage. An account whose close needs more operations
// than a transaction holds is not quoted: CleanUp refuses it anyway.
func (c *CLI) readQuotes(ctx context.Context, o buildOptions, p *wallet.CleanUpParams) error {
	if p.Assets != wallet.AssetsSell {
		return nil
	}
	acc := p.State.Accounts[o.account]
	if acc == nil {
		return nil
	}
	ops := len(acc.Offers) + len(acc.Trustlines) + len(acc.Data) + p.Reserved
	if p.Claim {
		ops += len(p.Claimable)
	}
	for _, t := range acc.Trustlines {
		if t.Balance > 0 {
			ops++
		}
	}
	if ops > wallet.MaxOperations {
		return nil
	}
	q, err := c.Horizon(o.horizonURL).SellQuotes(ctx, acc.Trustlines, int64(math.Round(o.slippage*100)))
	if err != nil {
		return err
	}
	p.Sell = q
	return nil
}

// signerWeight is key's weight as a public-key signer of acct; 0 when it
// is none (a signature of it would not count).
func signerWeight(acct wallet.Account, key string) int {
	for _, s := range acct.Signers {
		if s.Key == key && s.Type == "ed25519_public_key" {
			return s.Weight
		}
	}
	return 0
}

// needed is the weight a close of acct needs: its high threshold, or 1.
func needed(acct wallet.Account) int { return max(acct.HighThreshold, 1) }

func (b *built) json(o buildOptions) map[string]any {
	m := map[string]any{
		"ok": true, "network": o.network, "account": o.account, "destination": o.destination,
		"mergeInto": b.mergeTo, "sequence": b.tx.SequenceNumber(), "maxTime": b.tx.Timebounds().MaxTime,
		"hash": b.hash, "xdr": b.xdr, "signed": b.signer != nil, "checked": b.acct != nil,
	}
	if b.flow != nil {
		m["mediator"], m["mediatorFunding"], m["flowExpiry"] = b.flow.MediatorPublicKey, wallet.MediatorFunding, b.flow.Expiry.UTC().Format(time.RFC3339)
		// publish reads the token back, so `build --json | publish --submit`
		// has the relay run the forward (CONTRACT 16).
		m["flowToken"] = b.flow.Token
		if !b.flow.Memo.IsZero() {
			m["memo"] = b.flow.Memo.String()
		}
	}
	if !b.memo.IsZero() {
		m["memo"] = b.memo.String()
	}
	if b.signer != nil {
		m["signer"] = b.signer.Address()
	}
	m["operations"], m["feePerOperation"] = b.steps, b.fee
	if b.check != nil {
		blockers := make([]map[string]any, 0, len(b.check.Blockers))
		for _, bl := range b.check.Blockers {
			blockers = append(blockers, map[string]any{"op": bl.Op, "code": bl.Code, "reason": bl.Reason})
		}
		m["preflight"] = map[string]any{"state": b.check.State, "blockers": blockers}
	}
	if b.acct != nil {
		signers := make([]map[string]any, 0, len(b.acct.Signers))
		for _, s := range b.acct.Signers {
			signers = append(signers, map[string]any{"key": s.Key, "weight": s.Weight, "type": s.Type, "alone": s.Weight >= needed(*b.acct)})
		}
		m["signers"], m["highThreshold"], m["needed"] = signers, b.acct.HighThreshold, needed(*b.acct)
		m["weight"], m["met"] = b.progress.Weight, b.progress.Met()
	}
	return m
}

// report prints the close and the threshold check for a person.
func (b *built) report(w io.Writer, o buildOptions) {
	maxTime := time.Unix(b.tx.Timebounds().MaxTime, 0).UTC()
	fmt.Fprintf(w, "close of %s on %s into %s\n", o.account, o.network, b.mergeTo)
	fmt.Fprintf(w, "  sequence %d, valid until %s (%s), hash %s\n", b.tx.SequenceNumber(), maxTime.Format(time.RFC3339), o.validFor, b.hash)
	if b.flow != nil {
		b.reportFlow(w)
	}
	if !b.memo.IsZero() {
		fmt.Fprintf(w, "  memo %s, on the transaction\n", b.memo)
	}
	fmt.Fprintf(w, "  fee: %d stroops per operation, %d in all", b.fee, b.fee*int64(len(b.steps)))
	if b.feeNote != "" {
		fmt.Fprintf(w, " (%s)", b.feeNote)
	}
	fmt.Fprintln(w)
	for i, step := range b.steps {
		fmt.Fprintf(w, "  %d. %s\n", i+1, step)
	}
	for _, n := range b.notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	if b.check != nil {
		fmt.Fprintf(w, "  preflight: %s\n", b.check.State)
		for _, bl := range b.check.Blockers {
			fmt.Fprintf(w, "    %s: %s\n", bl.Code, bl.Reason)
		}
	}
	if b.acct == nil {
		fmt.Fprintln(w, "  threshold not checked: built offline from --sequence, without an account API (--horizon-url)")
		if b.signer == nil {
			fmt.Fprintln(w, "  unsigned: the relay only accepts a close already signed by a signer of the account (--sign)")
		}
		return
	}
	fmt.Fprintf(w, "  account API %s: high threshold %d, signers:\n", o.horizonURL, b.acct.HighThreshold)
	for _, s := range b.acct.Signers {
		note := ""
		if s.Key == o.account {
			note = " (master key)"
		}
		if s.Weight >= needed(*b.acct) {
			note += " (can close alone)"
		}
		fmt.Fprintf(w, "    %s weight %d%s\n", s.Key, s.Weight, note)
	}
	switch {
	case b.signer == nil:
		fmt.Fprintln(w, "  unsigned: the relay only accepts a close already signed by a signer of the account (--sign)")
	case b.progress.Met():
		fmt.Fprintf(w, "  signed by %s: %s, the threshold is met by this signer alone; no relay is needed\n", b.signer.Address(), b.progress)
		fmt.Fprintln(w, "  (closerelayctl does not submit; a live single-signer close would use --valid-for 300s)")
	default:
		fmt.Fprintf(w, "  signed by %s: %s, not enough alone: publish it to the relay (closerelayctl publish)\n", b.signer.Address(), b.progress)
		fmt.Fprintf(w, "  and have signers of %d more weight sign it (closerelayctl sign PLAN_ID)\n", b.progress.Needed-b.progress.Weight)
	}
}

// reportFlow says how a mediator plan's forward will run: by the relay,
// for a close published with a memo-committed token and --submit
// (CONTRACT 16), or by the signer of a single-signer close.
func (b *built) reportFlow(w io.Writer) {
	f := b.flow
	expiry := f.Expiry.UTC().Format(time.RFC3339)
	fmt.Fprintf(w, "  mediator plan: op 1 creates the mediator %s with %s XLM, the merge goes to it;\n", f.MediatorPublicKey, wallet.MediatorFunding)
	if f.Memo.IsZero() {
		fmt.Fprintf(w, "  its forward pays %s with the memo you give it: the token commits no memo, so the relay\n", f.Destination)
		fmt.Fprintf(w, "  cannot run it; co-sign and submit it yourself once the close has landed and before the\n")
		fmt.Fprintf(w, "  token expires at %s (closerelayctl mediator forward --submit), or mint the flow with --memo\n", expiry)
		return
	}
	fmt.Fprintf(w, "  its forward pays %s the mediator's whole balance with memo %s, then merges it there\n", f.Destination, f.Memo)
	fmt.Fprintln(w, "  publish with the token and --submit (build --json | closerelayctl publish --submit -, or")
	fmt.Fprintln(w, "  publish --submit --flow-token TOKEN): the relay submits the close and runs the forward itself")
	if b.signer != nil && b.progress.Met() {
		fmt.Fprintf(w, "  or, as this signer meets the threshold alone: submit the close (publish, then closerelayctl\n")
		fmt.Fprintf(w, "  submit PLAN_ID), then before %s run its forward yourself:\n", expiry)
		fmt.Fprintf(w, "  closerelayctl mediator forward --token TOKEN --mediator %s --submit\n", f.MediatorPublicKey)
	}
}
