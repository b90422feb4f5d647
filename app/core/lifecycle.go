package core

import (
	"github.com/agent-analysis/agent-analysis/app/protocol"
)

// Generation numbers the runs of one page: the nth run started has
// generation n. It is the identity of the run's local connection: every
// transport Msg carries one, and Msgs of any generation but the open
// connection's are no-ops.
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
	// String is the status word shown to people.
	String() string
	lifecycle()
}

// Idle: no run has started.
type Idle struct{}

// Connecting: the request is out; the requested run's RUN_STARTED has not
// arrived (replayed runs before it may have).
type Connecting struct{ Run Run }

// AwaitingSnapshot: the run started and has no state of its own yet; the
// screen keeps the last valid data.
type AwaitingSnapshot struct{ Run Run }

// Streaming: the run's state is the screen's data.
type Streaming struct{ Run Run }

// Completed: RUN_FINISHED with a success outcome (or none).
type Completed struct{ RunID string }

// Cancelled: the run stopped before it completed, and did not fail.
type Cancelled struct {
	RunID string
	Cause CancelCause
}

// Interrupted: RUN_FINISHED with the interrupt outcome: the agent waits
// for input. Resuming is not part of this demo.
type Interrupted struct {
	RunID      string
	Interrupts []protocol.Interrupt
}

// Failed: the run ended badly; nothing more of it is accepted.
type Failed struct {
	RunID  string
	Kind   FailureKind
	Rule   Rule          // the lifecycle rule that decided it
	Broke  protocol.Rule // for a Protocol failure: the AG-UI 1.0 rule the stream broke
	Reason string
}

// CancelCause says who stopped a run.
type CancelCause int

const (
	ByUser    CancelCause = iota // the Cancel button
	RouteExit                    // navigation away from the demo
	ByAgent                      // RUN_FINISHED's cancelled outcome
)

func (c CancelCause) String() string {
	switch c {
	case RouteExit:
		return "left the page"
	case ByAgent:
		return "cancelled by the agent"
	}
	return "cancelled by you"
}

// FailureKind says who ended a failed run (events/lifecycle: "A consumer
// MUST NOT present one as the other").
type FailureKind int

const (
	AgentReported FailureKind = iota // the agent's own RUN_ERROR
	Protocol                         // the stream broke a rule of AG-UI 1.0
	Transport                        // the request or the connection failed, or the stream ended early
)

func (k FailureKind) String() string {
	switch k {
	case AgentReported:
		return "reported by the agent"
	case Protocol:
		return "the stream broke AG-UI 1.0"
	}
	return "the connection failed"
}

// Who is who ended the run, as the status line says it.
func (k FailureKind) Who() string {
	switch k {
	case AgentReported:
		return "the agent"
	case Protocol:
		return "the stream"
	}
	return "the connection"
}

func (Idle) String() string             { return "Idle" }
func (Connecting) String() string       { return "Connecting" }
func (AwaitingSnapshot) String() string { return "Awaiting snapshot" }
func (Streaming) String() string        { return "Streaming" }
func (Completed) String() string        { return "Completed" }
func (Cancelled) String() string        { return "Cancelled" }
func (Interrupted) String() string      { return "Interrupted" }
func (Failed) String() string           { return "Failed" }

func (Idle) lifecycle()             {}
func (Connecting) lifecycle()       {}
func (AwaitingSnapshot) lifecycle() {}
func (Streaming) lifecycle()        {}
func (Completed) lifecycle()        {}
func (Cancelled) lifecycle()        {}
func (Interrupted) lifecycle()      {}
func (Failed) lifecycle()           {}

// ActiveRun returns the run that is still going, if any.
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

// Rule is one of the demo's run lifecycle rules, numbered as
// docs/agent-analysis.md numbers them; each rests on AG-UI 1.0 pages.
type Rule int

const (
	RuleNewRun        Rule = iota + 1 // Run starts a fresh run
	RuleRequestedRun                  // the requested run, and its first state is the baseline
	RuleAtomicDelta                   // a delta applies whole or not at all
	RuleBrokenStream                  // a broken rule or a refused state fails the run
	RuleRecover                       // Recover starts one fresh normal run
	RuleRunEnding                     // how a run ends: its outcome, a late RUN_ERROR, truncation
	RuleCancel                        // Cancel stops an active run and starts nothing
	RuleOtherFamilies                 // other families are checked, not shown; RUN_ERROR is the agent's
)

var rules = map[Rule]struct{ text, page string }{
	RuleNewRun:        {"Run starts a fresh run that declares protocolVersion 1.0 and the empty services state; data, filter and selection stay", "basic/run-input"},
	RuleRequestedRun:  {"the run the request asked for opens with its own RUN_STARTED; its first applied state is the baseline", "basic/run-input"},
	RuleAtomicDelta:   {"a delta applies atomically, or not at all; an unrecognised operation is dropped with a warning", "basic/patterns/snapshots"},
	RuleBrokenStream:  {"a broken 1.0 rule, or a state the services refuse, fails the run and keeps the last valid data", "basic/processing"},
	RuleRecover:       {"Recover starts one fresh normal run from Failed", "basic/patterns/snapshots"},
	RuleRunEnding:     {"RUN_FINISHED ends the run by its outcome; a later RUN_ERROR fails it; a stream that just ends fails it (transport), never a success", "events/lifecycle"},
	RuleCancel:        {"Cancel stops an active run and starts nothing", "events/lifecycle"},
	RuleOtherFamilies: {"other 1.0 events are checked and not shown; RUN_ERROR fails the run as the agent's own report", "events"},
}

func (r Rule) String() string { return rules[r].text }

// Page is the AG-UI 1.0 spec page the rule follows, under
// docs.ag-ui.com/spec/1.0/.
func (r Rule) Page() string { return rules[r].page }
