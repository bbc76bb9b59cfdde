// Package metrics owns closerelay's Prometheus registry and the collectors named
// in CONTRACT section 7. It holds no business logic: other packages call its
// typed methods at the moments they decide, and every method is safe on a nil
// *Metrics so that tests and tools may run without a registry.
package metrics

import (
	"net/http"
	"time"

	"github.com/closerelay/closerelay/errcode"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promauto"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Namespace prefixes every metric closerelay defines.
const Namespace = "closerelay"

// Route label values of CONTRACT section 7, and those of the routes added
// since (section 7 lets more be added).
const (
	RoutePlanPublish    = "plan_publish"
	RoutePlanGet        = "plan_get"
	RoutePlanSign       = "plan_sign"
	RoutePlanEvents     = "plan_events"
	RoutePlanReady      = "plan_ready"  // GET /api/plan/{id}/ready (CONTRACT section 10)
	RoutePlanStatus     = "plan_status" // GET /api/plan/{id}/status (CONTRACT section 10)
	RoutePlanSep7       = "plan_sep7"   // GET /api/plan/{id}/sep7 (CONTRACT section 11)
	RoutePlanPage       = "plan_page"   // the co-signers' HTML pages: /, /plan/{id} (CONTRACT section 11)
	RouteMediatorMint   = "mediator_mint"
	RouteMediatorCosign = "mediator_cosign"
)

// Routes lists every route label, so series can be created at zero.
var Routes = []string{RoutePlanPublish, RoutePlanGet, RoutePlanSign, RoutePlanEvents, RoutePlanReady, RoutePlanStatus, RoutePlanSep7, RoutePlanPage, RouteMediatorMint, RouteMediatorCosign}

// Signature results of closerelay_signatures_total.
const (
	SignatureAdmitted  = "admitted"
	SignatureDuplicate = "duplicate"
	SignatureDropped   = "dropped"
)

// CosignFailures are the failure results of closerelay_mediator_cosign_total:
// CONTRACT section 6's checks in order, then every forward refusal
// (errcode.ForwardCodesWithMemo: SPEC's 13, with CONTRACT section 13's
// FORWARD_MEMO_NOT_COMMITTED after FORWARD_DESTINATION_NOT_COMMITTED).
var CosignFailures = append([]errcode.Code{
	errcode.RateLimited, errcode.PayloadTooLarge, errcode.BadRequest, errcode.BadNetwork,
	errcode.MediatorNotConfigured, errcode.InvalidFlowToken,
}, errcode.ForwardCodesWithMemo()...)

// routeCodes pre-creates the rejection series per route, so that rate() and
// increase() see a route's first rejection of a code (a series born at 1 has
// no increase). Every code is errcode's. Codes not listed (INTERNAL,
// UNAVAILABLE while shutting down, REQUEST_TIMEOUT) still appear on first
// use.
var routeCodes = map[string][]errcode.Code{
	RoutePlanPublish: {errcode.BadXDR, errcode.BadNetwork, errcode.NotAClose, errcode.Expired, errcode.Rejected,
		errcode.Capacity, errcode.AccountUnreachable, errcode.Unsigned, errcode.SubmitUnsupported, errcode.BadFlow,
		errcode.MediatorNotConfigured, errcode.BadRequest, errcode.PayloadTooLarge, errcode.RateLimited},
	RoutePlanGet:        {errcode.NotFound, errcode.RateLimited},
	RoutePlanSign:       {errcode.BadXDR, errcode.Rejected, errcode.NotFound, errcode.PayloadTooLarge, errcode.RateLimited},
	RoutePlanEvents:     {errcode.NotFound, errcode.RateLimited, errcode.TooManySubscribers},
	RoutePlanReady:      {errcode.NotFound, errcode.NotReady, errcode.RateLimited},
	RoutePlanStatus:     {errcode.NotFound, errcode.RateLimited},
	RoutePlanSep7:       {errcode.NotFound, errcode.RateLimited},
	RoutePlanPage:       {errcode.NotFound, errcode.RateLimited},
	RouteMediatorMint:   {errcode.InvalidDestination, errcode.InvalidMemo, errcode.MediatorNotConfigured},
	RouteMediatorCosign: append([]errcode.Code{errcode.MethodNotAllowed}, CosignFailures...),
}

// Results of closerelay_submissions_total (CONTRACT section 10): a
// submission's outcome, and each retry of one.
const (
	SubmissionSubmitted = "submitted"
	SubmissionFailed    = "failed"
	SubmissionRetried   = "retried"
)

// Results of closerelay_forwards_total (CONTRACT section 16): a forward's
// outcome, or one retry.
const (
	ForwardForwarded = "forwarded"
	ForwardFailed    = "failed"
	ForwardRetried   = "retried"
)

// CosignSigned is the success result of closerelay_mediator_cosign_total.
const CosignSigned = "signed"

// Metrics is the service's set of collectors on its own registry.
type Metrics struct {
	Registry *prometheus.Registry

	plansOpen         prometheus.Gauge
	plansCreated      prometheus.Counter
	plansExpired      prometheus.Counter
	capacityRefused   prometheus.Counter
	streamSubscribers prometheus.Gauge
	streamRejected    prometheus.Counter
	signatures        *prometheus.CounterVec
	// signatureCounts are signatures' series by result, found once: every
	// sign counts one, and a lookup by label value hashes and validates it.
	signatureCounts    map[string]prometheus.Counter
	rejections         *prometheus.CounterVec
	rateLimited        *prometheus.CounterVec
	accountAPIDuration *prometheus.HistogramVec
	mediatorCosign     *prometheus.CounterVec
	streamEvents       prometheus.Counter
	submissions        *prometheus.CounterVec
	forwards           *prometheus.CounterVec
	preflights         *prometheus.CounterVec
	preflightBlockers  *prometheus.CounterVec
	store              storeMetrics
	planCount          *planCount
}

// New builds the collectors on a fresh registry, with the Go and process
// collectors, and creates every labelled series it can name at zero so that
// alerts and dashboards never see a missing series.
func New() *Metrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	f := promauto.With(reg)
	m := &Metrics{
		Registry: reg,
		plansOpen: f.NewGauge(prometheus.GaugeOpts{Namespace: Namespace, Name: "plans_open",
			Help: "Plans held in memory now (limit 500)."}),
		plansCreated: f.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "plans_created_total",
			Help: "Plans created by a publish."}),
		plansExpired: f.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "plans_expired_total",
			Help: "Plans swept at their expiry."}),
		capacityRefused: f.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "plans_capacity_refused_total",
			Help: "Publishes refused because 500 plans were open (guard 5 or 8)."}),
		streamSubscribers: f.NewGauge(prometheus.GaugeOpts{Namespace: Namespace, Name: "stream_subscribers",
			Help: "Open event-stream subscribers over all plans."}),
		streamRejected: f.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "stream_rejected_total",
			Help: "Event-stream subscriptions refused with 503 at the 50-subscriber cap."}),
		streamEvents: f.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: "stream_events_total",
			Help: "Envelope states broadcast by plans to their subscribers (one per change)."}),
		signatures: f.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "signatures_total",
			Help: "Signatures seen by admission, by result."}, []string{"result"}),
		rejections: f.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "rejections_total",
			Help: "Requests answered 4xx/5xx with a code, by route and code."}, []string{"route", "code"}),
		rateLimited: f.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "rate_limited_total",
			Help: "Requests refused 429 by a per-client-IP limiter, by route."}, []string{"route"}),
		accountAPIDuration: f.NewHistogramVec(prometheus.HistogramOpts{Namespace: Namespace, Name: "account_api_duration_seconds",
			Help:    "Account API (Horizon) round trips, by network and outcome (ok or error).",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}}, []string{"network", "outcome"}),
		mediatorCosign: f.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "mediator_cosign_total",
			Help: "Mediator co-sign requests, by result (signed or the failure code)."}, []string{"result"}),
		submissions: f.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "submissions_total",
			Help: "The relay's submissions of ready plans to the ledger: outcomes (submitted, failed) and retries."}, []string{"result"}),
		forwards: f.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "forwards_total",
			Help: "The relay's mediator forwards (CONTRACT section 16): outcomes (forwarded, failed) and retries."}, []string{"result"}),
		preflights: f.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "preflight_total",
			Help: "Preflights run at publish, by verdict (landable, blocked, uncertain, unchecked)."}, []string{"state"}),
		preflightBlockers: f.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "preflight_blockers_total",
			Help: "Blockers the publish preflight found, by result code (op_has_sub_entries, memo_required, …)."}, []string{"code"}),
	}
	m.store = newStoreMetrics(reg)
	m.planCount = newPlanCount(reg)
	for _, st := range []string{"landable", "blocked", "uncertain", "unchecked"} {
		m.preflights.WithLabelValues(st)
	}
	for _, r := range []string{SubmissionSubmitted, SubmissionFailed, SubmissionRetried} {
		m.submissions.WithLabelValues(r)
	}
	for _, r := range []string{ForwardForwarded, ForwardFailed, ForwardRetried} {
		m.forwards.WithLabelValues(r)
	}
	m.signatureCounts = make(map[string]prometheus.Counter, 3)
	for _, r := range []string{SignatureAdmitted, SignatureDuplicate, SignatureDropped} {
		m.signatureCounts[r] = m.signatures.WithLabelValues(r)
	}
	for _, route := range Routes {
		m.rateLimited.WithLabelValues(route)
		for _, code := range routeCodes[route] {
			m.rejections.WithLabelValues(route, string(code))
		}
	}
	for _, n := range []string{"mainnet", "testnet", "futurenet"} {
		for _, o := range []string{"ok", "error"} {
			m.accountAPIDuration.WithLabelValues(n, o)
		}
	}
	m.mediatorCosign.WithLabelValues(CosignSigned)
	for _, code := range CosignFailures {
		m.mediatorCosign.WithLabelValues(string(code))
	}
	return m
}

// BuildInfo publishes closerelay_build_info{version,revision,goversion} = 1,
// so dashboards can tell which build each instance runs. Call it once.
func (m *Metrics) BuildInfo(version, revision, goVersion string) {
	if m == nil {
		return
	}
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: Namespace, Name: "build_info",
		Help: "Always 1; the labels name the running build."}, []string{"version", "revision", "goversion"})
	m.Registry.MustRegister(g)
	g.WithLabelValues(version, revision, goVersion).Set(1)
}

// LedgerAPIInfo publishes closerelay_ledger_api_info{network,backend} = 1
// for each network's ledger API (CONTRACT section 15: horizon or rpc), so
// dashboards can tell which API an instance reads and submits through.
// Call it once.
func (m *Metrics) LedgerAPIInfo(backends map[string]string) {
	if m == nil {
		return
	}
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: Namespace, Name: "ledger_api_info",
		Help: "Always 1; the labels name each network's ledger API."}, []string{"network", "backend"})
	m.Registry.MustRegister(g)
	for n, b := range backends {
		g.WithLabelValues(n, b).Set(1)
	}
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{Registry: m.Registry})
}

// PlanCreated counts a new plan and raises the open gauge.
func (m *Metrics) PlanCreated() {
	if m == nil {
		return
	}
	m.plansCreated.Inc()
	m.plansOpen.Inc()
}

// PlanExpired counts a swept plan and lowers the open gauge.
func (m *Metrics) PlanExpired() {
	if m == nil {
		return
	}
	m.plansExpired.Inc()
	m.plansOpen.Dec()
}

// PlanClosed lowers the open gauge for a plan stopped without expiring (shutdown).
func (m *Metrics) PlanClosed() {
	if m == nil {
		return
	}
	m.plansOpen.Dec()
}

// CapacityRefused counts a publish refused at the plan limit.
func (m *Metrics) CapacityRefused() {
	if m == nil {
		return
	}
	m.capacityRefused.Inc()
}

// SubscriberAdded raises the subscriber gauge.
func (m *Metrics) SubscriberAdded() {
	if m == nil {
		return
	}
	m.streamSubscribers.Inc()
}

// SubscriberRemoved lowers the subscriber gauge.
func (m *Metrics) SubscriberRemoved() {
	if m == nil {
		return
	}
	m.streamSubscribers.Dec()
}

// SubscriberRejected counts a 503 at the subscriber cap.
func (m *Metrics) SubscriberRejected() {
	if m == nil {
		return
	}
	m.streamRejected.Inc()
}

// Broadcast counts one state change fanned out by a plan.
func (m *Metrics) Broadcast() {
	if m == nil {
		return
	}
	m.streamEvents.Inc()
}

// Signatures adds n signatures of one result.
func (m *Metrics) Signatures(result string, n int) {
	if m == nil || n == 0 {
		return
	}
	if c, ok := m.signatureCounts[result]; ok {
		c.Add(float64(n))
		return
	}
	m.signatures.WithLabelValues(result).Add(float64(n))
}

// Rejection counts one coded 4xx/5xx answer.
func (m *Metrics) Rejection(route string, code errcode.Code) {
	if m == nil {
		return
	}
	m.rejections.WithLabelValues(route, string(code)).Inc()
}

// RateLimited counts one 429.
func (m *Metrics) RateLimited(route string) {
	if m == nil {
		return
	}
	m.rateLimited.WithLabelValues(route).Inc()
}

// AccountAPI observes one account API round trip.
func (m *Metrics) AccountAPI(network string, ok bool, d time.Duration) {
	if m == nil {
		return
	}
	outcome := "ok"
	if !ok {
		outcome = "error"
	}
	m.accountAPIDuration.WithLabelValues(network, outcome).Observe(d.Seconds())
}

// MediatorCosign counts one co-sign answer: "signed" or the failure code.
func (m *Metrics) MediatorCosign(result string) {
	if m == nil {
		return
	}
	m.mediatorCosign.WithLabelValues(result).Inc()
}

// Forward counts one forward outcome (ForwardForwarded, ForwardFailed) or
// one retry (ForwardRetried).
func (m *Metrics) Forward(result string) {
	if m == nil {
		return
	}
	m.forwards.WithLabelValues(result).Inc()
}

// Submission counts one submission outcome (SubmissionSubmitted,
// SubmissionFailed) or one retry (SubmissionRetried).
func (m *Metrics) Submission(result string) {
	if m == nil {
		return
	}
	m.submissions.WithLabelValues(result).Inc()
}

// Preflight counts one publish's preflight: its verdict, and each of its
// blockers by code. The codes come from the preflight's own fixed set, so
// no request can add a label value.
func (m *Metrics) Preflight(state string, codes []string) {
	if m == nil {
		return
	}
	m.preflights.WithLabelValues(state).Inc()
	for _, c := range codes {
		m.preflightBlockers.WithLabelValues(c).Inc()
	}
}

// PlanRestored raises the open gauge for a plan this instance took from the
// cluster's store (cluster mode): another instance created it.
func (m *Metrics) PlanRestored() {
	if m == nil {
		return
	}
	m.plansOpen.Inc()
}
