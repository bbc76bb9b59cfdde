package metrics

import (
	"context"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// planCountTimeout bounds the read behind one scrape of
// closerelay_cluster_plans_open; Prometheus' own scrape timeout is 10 s by
// default.
const planCountTimeout = 2 * time.Second

// planCount is closerelay_cluster_plans_open: the deployment's open plans,
// read at each scrape through the function CountPlans set. In cluster mode
// closerelay_plans_open counts what one instance holds, which is neither
// the cluster's load nor its limit; this is the count the 500-plan
// capacity is enforced against.
type planCount struct {
	desc *prometheus.Desc
	mu   sync.Mutex
	read func(context.Context) (int, error)
}

func newPlanCount(reg prometheus.Registerer) *planCount {
	c := &planCount{desc: prometheus.NewDesc(prometheus.BuildFQName(Namespace, "", "cluster_plans_open"),
		"Open plans of the whole deployment, read at scrape: the plan store's registry in cluster mode "+
			"(absent while NATS is unreachable), this process's plans in single mode. The 500-plan limit applies to it.",
		nil, nil)}
	reg.MustRegister(c)
	return c
}

func (c *planCount) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

// Collect reads the count. A failed read leaves the series out of this
// scrape rather than report a number that is not the count:
// closerelay_store_available tells why.
func (c *planCount) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	read := c.read
	c.mu.Unlock()
	if read == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), planCountTimeout)
	defer cancel()
	n, err := read(ctx)
	if err != nil {
		return
	}
	ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n))
}

// CountPlans sets how closerelay_cluster_plans_open reads the deployment's
// open plans (the composition root knows whether a plan store is in use);
// until it is called the series is absent.
func (m *Metrics) CountPlans(read func(context.Context) (int, error)) {
	if m == nil {
		return
	}
	m.planCount.mu.Lock()
	m.planCount.read = read
	m.planCount.mu.Unlock()
}
