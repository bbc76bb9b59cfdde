package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Store operations, the op label of closerelay_store_request_duration_seconds
// (cluster mode, CONTRACT section 12): reading a plan, creating one, its
// compare-and-set write, its deletion at expiry, and the cluster-wide registry's read and
// compare-and-set write (capacity and PLANS_PER_ACCOUNT).
const (
	StoreGet           = "get"
	StoreCreate        = "create"
	StoreUpdate        = "update"
	StoreDelete        = "delete"
	StoreRegistryRead  = "registry_read"
	StoreRegistryWrite = "registry_write"
)

// StoreOps lists every op label, so series can be created at zero.
var StoreOps = []string{StoreGet, StoreCreate, StoreUpdate, StoreDelete, StoreRegistryRead, StoreRegistryWrite}

// Store entries whose compare-and-set can conflict, the entry label of
// closerelay_store_conflicts_total.
const (
	StoreEntryPlan     = "plan"
	StoreEntryRegistry = "registry"
)

// Why a record read from the plan store was refused, the reason label of
// closerelay_store_records_refused_total: its value does not decode as a
// record, its envelope does not decode as a close, the envelope does not
// hash to the record's key on its network, a signature does not verify,
// another field is out of shape or disagrees with the envelope, or the
// plan's mediator flow does not verify (or cannot be, without a master).
const (
	StoreRefusedValue     = "value"
	StoreRefusedEnvelope  = "envelope"
	StoreRefusedHash      = "hash"
	StoreRefusedSignature = "signature"
	StoreRefusedFields    = "fields"
	StoreRefusedFlow      = "flow"
)

// StoreRefusedReasons lists every reason label, so series can be created
// at zero.
var StoreRefusedReasons = []string{StoreRefusedValue, StoreRefusedEnvelope, StoreRefusedHash, StoreRefusedSignature, StoreRefusedFields, StoreRefusedFlow}

// storeMetrics are cluster mode's collectors. They exist in single mode too
// (at zero, with closerelay_store_available at 1: memory is always there),
// so dashboards and alerts need no second variant.
type storeMetrics struct {
	duration  *prometheus.HistogramVec
	conflicts *prometheus.CounterVec
	available prometheus.Gauge
	refused   *prometheus.CounterVec
}

func newStoreMetrics(reg prometheus.Registerer) storeMetrics {
	s := storeMetrics{
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: Namespace, Name: "store_request_duration_seconds",
			Help: "Round trips to the plan store (NATS JetStream key-value, cluster mode), by op and outcome (ok, conflict, error).",
			// Loopback to a replicated bucket is a fraction of a millisecond;
			// a replica across zones, a few.
			Buckets: []float64{.0002, .0005, .001, .002, .005, .01, .025, .05, .1, .25, 1}}, []string{"op", "outcome"}),
		conflicts: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "store_conflicts_total",
			Help: "Compare-and-set writes to the plan store that lost to another instance's and were merged again, by entry (plan, registry)."}, []string{"entry"}),
		available: prometheus.NewGauge(prometheus.GaugeOpts{Namespace: Namespace, Name: "store_available",
			Help: "1 while the plan store answers (always in single mode), 0 while NATS is unreachable."}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "store_records_refused_total",
			Help: "Plan records read from the store that failed their check and were neither served nor merged into, by reason (value, envelope, hash, signature, fields, flow)."}, []string{"reason"}),
	}
	reg.MustRegister(s.duration, s.conflicts, s.available, s.refused)
	for _, r := range StoreRefusedReasons {
		s.refused.WithLabelValues(r)
	}
	for _, op := range StoreOps {
		for _, o := range []string{"ok", "conflict", "error"} {
			s.duration.WithLabelValues(op, o)
		}
	}
	s.conflicts.WithLabelValues(StoreEntryPlan)
	s.conflicts.WithLabelValues(StoreEntryRegistry)
	s.available.Set(1)
	return s
}

// StoreRequest observes one store round trip; outcome is "ok", "conflict"
// (a compare-and-set that lost, or a create that found the entry) or "error".
func (m *Metrics) StoreRequest(op, outcome string, d time.Duration) {
	if m == nil {
		return
	}
	m.store.duration.WithLabelValues(op, outcome).Observe(d.Seconds())
}

// StoreConflict counts one compare-and-set that lost on entry.
func (m *Metrics) StoreConflict(entry string) {
	if m == nil {
		return
	}
	m.store.conflicts.WithLabelValues(entry).Inc()
}

// StoreAvailable sets closerelay_store_available.
func (m *Metrics) StoreAvailable(up bool) {
	if m == nil {
		return
	}
	v := 0.0
	if up {
		v = 1
	}
	m.store.available.Set(v)
}

// StoreRecordRefused counts one record read from the store and refused for
// reason (a StoreRefused* label).
func (m *Metrics) StoreRecordRefused(reason string) {
	if m == nil {
		return
	}
	m.store.refused.WithLabelValues(reason).Inc()
}
