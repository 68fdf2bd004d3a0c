// Package metrics exposes the service in Prometheus' format (GET /metrics) with
// github.com/prometheus/client_golang. Business code does not import it: requests
// are measured by a middleware around the mux, the booking operations report what
// they did through the small booking.Events interface this package implements,
// deliveries through the dispatcher's outcome hook, and what lives in the database
// (the notification backlog, today's occupancy, the connection pools) is read when
// Prometheus scrapes, so every instance reports the same shared figures.
package metrics

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Sources are the readings taken at scrape time. Any may be nil.
type Sources struct {
	// Pools are the database connection pools by name ("read", "write"); on
	// PostgreSQL both names may be the same pool, which is then reported once.
	Pools map[string]*sql.DB
	// Backlog is the outbox: rows waiting to be delivered and the creation time
	// of the oldest of them (zero when none waits).
	Backlog func(ctx context.Context) (pending int64, oldest time.Time, err error)
	// Occupancy is the parking board now: spots occupied, spots reserved for
	// today and not yet occupied, and the facility's capacity (0: not set).
	Occupancy func(ctx context.Context) (occupied, reserved, capacity int, err error)
	// Overdue is how many cars are still in after their exit date (EN CURSO, exit
	// passed) now.
	Overdue func(ctx context.Context) (int, error)
	// Now is the service's clock (for the oldest pending age).
	Now func() time.Time
}

// Metrics holds the registry and the service's own instruments.
type Metrics struct {
	reg         *prometheus.Registry
	log         *slog.Logger
	requests    *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	created     *prometheus.CounterVec
	refused     *prometheus.CounterVec
	transitions *prometheus.CounterVec
	deliveries  *prometheus.CounterVec
	// observers holds each (route, status)'s request counter and latency observer,
	// looked up once: a request then costs no label hashing. The map is replaced,
	// never changed (under observersMu), so reading it takes no lock.
	observers   atomic.Pointer[map[routeStatus]*requestObservers]
	observersMu sync.Mutex
}

// routeStatus keys Metrics.observers.
type routeStatus struct {
	route  string
	status int
}

// requestObservers are one (route, status)'s instruments.
type requestObservers struct {
	count   prometheus.Counter
	latency prometheus.Observer
}

// scrapeTimeout bounds the database readings of one scrape.
const scrapeTimeout = 3 * time.Second

// counter is a counter family with its help text and labels.
func counter(name, help string, labels ...string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
}

// New builds the registry: Go runtime and process collectors, the request,
// booking, transition and delivery counters, and the scrape-time readings of src.
func New(src Sources, log *slog.Logger) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		reg: reg,
		log: log,
		requests: counter("parking_http_requests_total",
			"HTTP requests answered, by route pattern (unmatched: no route) and status.", "route", "status"),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "parking_http_request_duration_seconds",
			Help: "Time to answer an HTTP request, by route pattern.",
			// From a cached quote (~0.1 ms) to a database at its deadline (5 s).
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route"}),
		created: counter("parking_bookings_created_total",
			"Bookings created, by channel (public, walkin).", "channel"),
		refused: counter("parking_bookings_refused_total",
			"Booking attempts refused or failed, by channel and reason (invalid, conflict, unavailable, error…).", "channel", "reason"),
		transitions: counter("parking_reservation_transitions_total",
			"Reservation state changes, by previous and new state.", "from", "to"),
		deliveries: counter("parking_notification_deliveries_total",
			"Webhook delivery attempts recorded by this instance's dispatcher, by result (delivered, retry, failed, released).", "result"),
	}
	reg.MustRegister(m.requests, m.latency, m.created, m.refused, m.transitions, m.deliveries,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	seen := map[*sql.DB]bool{}
	for _, name := range slices.Sorted(maps.Keys(src.Pools)) { // "read" before "write"
		db := src.Pools[name]
		if db == nil || seen[db] {
			continue
		}
		seen[db] = true
		reg.MustRegister(collectors.NewDBStatsCollector(db, name))
	}
	if src.Backlog != nil || src.Occupancy != nil || src.Overdue != nil {
		reg.MustRegister(&dbReadings{src: src, log: log})
	}
	return m
}

// Registry is the registry (tests gather from it).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the registry in Prometheus' text format. With a token
// (PARKING_METRICS_TOKEN), a request must carry "Authorization: Bearer <token>",
// else 401: the figures say how busy the business is.
func (m *Metrics) Handler(token string) http.Handler {
	h := promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorLog: slog.NewLogLogger(m.log.Handler(), slog.LevelWarn)})
	if token == "" {
		return h
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":"Unauthorized"}`))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// ObserveRequest counts and times one answered request by the route pattern the
// mux matched ("unmatched": none) and its status (httpx.Kit.ObserveRequests).
func (m *Metrics) ObserveRequest(route string, status int, elapsed time.Duration) {
	o := m.requestObservers(routeStatus{route, status})
	o.count.Inc()
	o.latency.Observe(elapsed.Seconds())
}

// requestObservers are key's instruments, added to m.observers the first time.
func (m *Metrics) requestObservers(key routeStatus) *requestObservers {
	if cur := m.observers.Load(); cur != nil {
		if o, ok := (*cur)[key]; ok {
			return o
		}
	}
	m.observersMu.Lock()
	defer m.observersMu.Unlock()
	cur := m.observers.Load()
	if cur != nil {
		if o, ok := (*cur)[key]; ok {
			return o
		}
	}
	next := make(map[routeStatus]*requestObservers, 1)
	if cur != nil {
		maps.Copy(next, *cur)
	}
	o := &requestObservers{
		count:   m.requests.WithLabelValues(key.route, strconv.Itoa(key.status)),
		latency: m.latency.WithLabelValues(key.route),
	}
	next[key] = o
	m.observers.Store(&next)
	return o
}

// BookingCreated implements booking.Events.
func (m *Metrics) BookingCreated(channel string) { m.created.WithLabelValues(channel).Inc() }

// BookingRefused implements booking.Events.
func (m *Metrics) BookingRefused(channel, reason string) {
	m.refused.WithLabelValues(channel, reason).Inc()
}

// StatusChanged implements booking.Events.
func (m *Metrics) StatusChanged(from, to string) { m.transitions.WithLabelValues(from, to).Inc() }

// Delivery counts one recorded delivery outcome (the dispatcher's hook).
func (m *Metrics) Delivery(result string) { m.deliveries.WithLabelValues(result).Inc() }

// dbReadings reads the shared figures from the database at scrape time, so that
// every instance reports the same backlog and occupancy.
type dbReadings struct {
	src Sources
	log *slog.Logger
}

var (
	descPending   = prometheus.NewDesc("parking_notifications_pending", "Notifications waiting in the outbox to be delivered (all instances).", nil, nil)
	descOldest    = prometheus.NewDesc("parking_notifications_oldest_pending_age_seconds", "Age of the oldest notification waiting to be delivered; 0 when none waits.", nil, nil)
	descOccupied  = prometheus.NewDesc("parking_spots_occupied", "Spots with a vehicle in them now (reservations EN CURSO with a spot).", nil, nil)
	descReserved  = prometheus.NewDesc("parking_spots_reserved_today", "Spots reserved for today whose vehicle has not arrived.", nil, nil)
	descCapacity  = prometheus.NewDesc("parking_capacity", "Places in the facility (0: not configured).", nil, nil)
	descOccupancy = prometheus.NewDesc("parking_occupancy_ratio", "Occupied spots over capacity (only when a capacity is configured).", nil, nil)
	descOverdue   = prometheus.NewDesc("parking_stays_overdue", "Cars still in the car park after their exit date (reservations EN CURSO whose exit date has passed).", nil, nil)
	descScrapeErr = prometheus.NewDesc("parking_scrape_errors", "Database readings that failed during this scrape, by reading.", []string{"reading"}, nil)
)

func (d *dbReadings) Describe(ch chan<- *prometheus.Desc) {
	for _, x := range []*prometheus.Desc{descPending, descOldest, descOccupied, descReserved, descCapacity, descOccupancy, descOverdue, descScrapeErr} {
		ch <- x
	}
}

func (d *dbReadings) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	failed := func(reading string, err error) {
		d.log.Warn("metrics reading failed", "reading", reading, "err", err)
		ch <- prometheus.MustNewConstMetric(descScrapeErr, prometheus.GaugeValue, 1, reading)
	}
	if d.src.Backlog != nil {
		n, oldest, err := d.src.Backlog(ctx)
		if err != nil {
			failed("notifications", err)
		} else {
			age := 0.0
			if !oldest.IsZero() && d.src.Now != nil {
				age = max(d.src.Now().Sub(oldest).Seconds(), 0)
			}
			ch <- prometheus.MustNewConstMetric(descPending, prometheus.GaugeValue, float64(n))
			ch <- prometheus.MustNewConstMetric(descOldest, prometheus.GaugeValue, age)
		}
	}
	if d.src.Occupancy != nil {
		occ, res, capacity, err := d.src.Occupancy(ctx)
		if err != nil {
			failed("occupancy", err)
		} else {
			ch <- prometheus.MustNewConstMetric(descOccupied, prometheus.GaugeValue, float64(occ))
			ch <- prometheus.MustNewConstMetric(descReserved, prometheus.GaugeValue, float64(res))
			ch <- prometheus.MustNewConstMetric(descCapacity, prometheus.GaugeValue, float64(capacity))
			if capacity > 0 {
				ch <- prometheus.MustNewConstMetric(descOccupancy, prometheus.GaugeValue, float64(occ)/float64(capacity))
			}
		}
	}
	if d.src.Overdue != nil {
		if n, err := d.src.Overdue(ctx); err != nil {
			failed("overdue", err)
		} else {
			ch <- prometheus.MustNewConstMetric(descOverdue, prometheus.GaugeValue, float64(n))
		}
	}
}
