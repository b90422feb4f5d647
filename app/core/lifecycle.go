package core

// Generation numbers the runs of one page: the nth run started has
// generation n. It is the identity of the run's local connection: every
// transport Msg carries one, and Msgs of any generation but the active
// run's are no-ops.
type Generation int

// Run describes one requested run (the spec's request descriptor). It is
// immutable: the stream depends on nothing else.
type Run struct {
	Generation Generation
	ThreadID   string
	RunID      string
	Scenario   string
}

// Lifecycle is the run's state, a closed sum: exactly the types below.
type Lifecycle interface {
	// Word is the status shown to people.
	Word() string
	lifecycle()
}

// Idle: no run has started.
type Idle struct{}

// Connecting: the request is out, RUN_STARTED has not arrived.
type Connecting struct{ Run Run }

// AwaitingSnapshot: the run started; its first valid snapshot will be the
// baseline. Until then no delta can apply: the previous run's Wire is not
// this run's.
type AwaitingSnapshot struct{ Run Run }

// Streaming: the run has a baseline and applies updates.
type Streaming struct{ Run Run }

// Completed: the run finished with RUN_FINISHED.
type Completed struct{ RunID string }

// Cancelled: the run was stopped locally, by the user or by leaving.
type Cancelled struct {
	RunID string
	Cause CancelCause
}

// Failed: the run broke a rule or lost its transport; nothing more of it is
// accepted.
type Failed struct {
	RunID  string
	Kind   FailureKind
	Rule   int // the lifecycle rule that decided it (docs/agent-analysis.md)
	Reason string
}

// CancelCause says who cancelled.
type CancelCause int

const (
	ByUser    CancelCause = iota // the Cancel button
	RouteExit                    // navigation away from the demo
)

func (c CancelCause) String() string {
	if c == RouteExit {
		return "left the page"
	}
	return "cancelled by you"
}

// FailureKind says which side broke.
type FailureKind int

const (
	Protocol  FailureKind = iota // the agent sent something invalid
	Transport                    // the connection failed or ended early
)

func (k FailureKind) String() string {
	if k == Transport {
		return "transport"
	}
	return "protocol"
}

func (Idle) Word() string             { return "Idle" }
func (Connecting) Word() string       { return "Connecting" }
func (AwaitingSnapshot) Word() string { return "Awaiting snapshot" }
func (Streaming) Word() string        { return "Streaming" }
func (Completed) Word() string        { return "Completed" }
func (Cancelled) Word() string        { return "Cancelled" }
func (Failed) Word() string           { return "Failed" }

func (Idle) lifecycle()             {}
func (Connecting) lifecycle()       {}
func (AwaitingSnapshot) lifecycle() {}
func (Streaming) lifecycle()        {}
func (Completed) lifecycle()        {}
func (Cancelled) lifecycle()        {}
func (Failed) lifecycle()           {}

// ActiveRun returns the run whose connection is open, if any.
func ActiveRun(l Lifecycle) (Run, bool) {
	switch l := l.(type) {
	case Connecting:
		return l.Run, true
	case AwaitingSnapshot:
		return l.Run, true
	case Streaming:
		return l.Run, true
	default:
		return Run{}, false
	}
}

// Rules are the run lifecycle's rules in one line each; docs/agent-analysis.md
// gives them in full, with the same numbers.
var Rules = map[int]string{
	1: "Run starts a fresh run; data, filter and selection stay",
	2: "the run's own RUN_STARTED, then its own first snapshot, is the only baseline",
	3: "a delta applies atomically, or not at all",
	4: "anything malformed or out of order fails the run; nothing later of it is accepted",
	5: "Recover starts one fresh normal run from Failed",
	6: "only the run's own RUN_FINISHED completes it; a stream that just ends fails it",
	7: "Cancel stops an open run and starts nothing",
	8: "other AG-UI events are ignored; RUN_ERROR fails the run",
}
