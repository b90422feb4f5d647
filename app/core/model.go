package core

import "strconv"

// Bounds of the Model's history.
const (
	MaxActivity   = 12
	MaxRejections = 3
)

// Filter is the series shown: all, or one series.
type Filter string

const (
	All          Filter = "All"
	OnlyCore     Filter = Filter(CoreSeries)
	OnlyPlatform Filter = Filter(PlatformSeries)
)

// Filters lists the filters in the order they are offered.
var Filters = []Filter{All, OnlyCore, OnlyPlatform}

// Admits reports whether a service passes the filter.
func (f Filter) Admits(s Service) bool { return f == All || Series(f) == s.Series }

// Model is everything the demo knows. Update returns a new Model; slices
// and maps in it are never modified after they are made, so an old Model
// stays valid after Update and Models share them freely.
type Model struct {
	Thread string // this app instance's first AG-UI thread id (see ThreadID)
	// Abandoned counts the threads this page left with a question open: a
	// thread that goes on must answer it (1.x), so a fresh run after one
	// starts the next thread instead.
	Abandoned int
	// Asking: the current thread has a question no run has taken an
	// answer to yet (from the interrupt until the resumed run starts).
	Asking     bool
	Scenario   string     // the scenario the next run plays
	Generation Generation // runs started so far: the newest run's generation
	Run        Run        // the newest run
	Connection Generation // the run whose stream is open; 0 when none is
	Lifecycle  Lifecycle  // the current run's state
	Wire       *Wire      // last valid data; nil before the first snapshot
	// Baseline is the current run's first applied state (a snapshot, or a
	// delta on the input's state), by service id.
	// Nil until then; services added later have no entry.
	Baseline   map[string]Service
	Filter     Filter
	Selected   string // selected service id; "" for none
	Accepted   int    // snapshots and deltas accepted in the current run
	Warned     int    // warnings the engine gave in the current run
	Activity   []Entry
	Rejections []Rejection // the newest last
	Arrivals   []Arrival   // the current run's events, the newest last
}

// Entry is one line of the activity log.
type Entry struct {
	RunID string
	Level Level
	Text  string
}

// Level grades an activity entry.
type Level int

const (
	Info Level = iota
	Warning
	Problem
)

// NewModel is the state at load: idle, no data, all series, the normal
// scenario chosen.
func NewModel(thread string) Model {
	return Model{Thread: thread, Scenario: "normal", Lifecycle: Idle{}, Filter: All}
}

// ThreadID is the thread the page's runs go on now: Thread, then
// Thread-2, Thread-3, … after each thread left with a question open.
func (m Model) ThreadID() string {
	if m.Abandoned == 0 {
		return m.Thread
	}
	return m.Thread + "-" + strconv.Itoa(m.Abandoned+1)
}

// Visible lists the services the filter admits, in Wire order.
func (m Model) Visible() []Service {
	if m.Wire == nil {
		return nil
	}
	out := make([]Service, 0, m.Wire.Len())
	for _, s := range m.Wire.All() {
		if m.Filter.Admits(s) {
			out = append(out, s)
		}
	}
	return out
}

// Shows reports whether the service with this id is visible.
func (m Model) Shows(id string) bool {
	if m.Wire == nil {
		return false
	}
	s, ok := m.Wire.Find(id)
	return ok && m.Filter.Admits(s)
}

// BaselineOf returns a service's value in the current run's baseline.
func (m Model) BaselineOf(id string) (Service, bool) {
	s, ok := m.Baseline[id]
	return s, ok
}

// LastRejection returns the newest rejection if it belongs to the run the
// lifecycle shows: the one the page should explain now.
func (m Model) LastRejection() (Rejection, bool) {
	f, failed := m.Lifecycle.(Failed)
	if !failed || len(m.Rejections) == 0 {
		return Rejection{}, false
	}
	r := m.Rejections[len(m.Rejections)-1]
	return r, r.RunID == f.RunID
}

// appendBounded returns a new slice: list plus item, keeping the last limit.
// It never writes into list's array, which other Models may share.
func appendBounded[T any](list []T, item T, limit int) []T {
	keep := list[max(0, len(list)+1-limit):]
	out := make([]T, 0, len(keep)+1)
	return append(append(out, keep...), item)
}
